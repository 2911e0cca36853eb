"""Karpathy's "Let's build GPT: from scratch, in code, spelled out", as a program that
takes the library as ``torch``: the character-level data (a few hundred characters
written here instead of the Shakespeare download), ``get_batch`` with ``torch.randint``,
the self-attention "mathematical trick" (``tril``, ``masked_fill`` with ``-inf``,
``softmax``), the bigram model, then the GPT of the lecture's ``gpt.py`` (Head,
MultiHeadAttention, FeedFoward, Block, GPTLanguageModel with its ``_init_weights``) at a
small size, ``estimate_loss`` under ``@torch.no_grad()``, AdamW steps and ``generate``
with ``torch.multinomial``. The code of the model is the lecture's, unchanged; only the
sizes are small. Then a model in the style of nanoGPT's ``model.py`` (``nanogpt_style``).

Each part prints what the lecture prints; ``tests/nn/test_gpt_lecture.py`` runs it under
PyTorch 2.13 and under minigrad and compares.
"""

from __future__ import annotations

TEXT = """First Citizen:
Before we proceed any further, hear me speak.

All:
Speak, speak.

First Citizen:
You are all resolved rather to die than to famish?

All:
Resolved. resolved.

First Citizen:
First, you know Caius Marcius is chief enemy to the people.

All:
We know't, we know't.

First Citizen:
Let us kill him, and we'll have corn at our own price.
Is't a verdict?

All:
No more talking on't; let it be done: away, away!
"""


def data(torch):
    """The lecture's data handling: the vocabulary, encode/decode, the split."""
    chars = sorted(list(set(TEXT)))
    vocab_size = len(chars)
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = {i: ch for i, ch in enumerate(chars)}
    encode = lambda s: [stoi[c] for c in s]  # noqa: E731 (as in the lecture)
    decode = lambda l: ''.join([itos[i] for i in l])  # noqa: E731,E741
    data = torch.tensor(encode(TEXT), dtype=torch.long)
    n = int(0.9 * len(data))
    return vocab_size, encode, decode, data[:n], data[n:]


def attention_trick(torch):
    """The "mathematical trick in self-attention" section, printed as in the video."""
    F = torch.nn.functional
    torch.manual_seed(42)
    a = torch.tril(torch.ones(3, 3))
    a = a / torch.sum(a, 1, keepdim=True)
    b = torch.randint(0, 10, (3, 2)).float()
    c = a @ b
    print('a=', a, '--', 'b=', b, '--', 'c=', c, sep='\n')
    torch.manual_seed(1337)
    B, T, C = 4, 8, 2
    x = torch.randn(B, T, C)
    xbow = torch.zeros((B, T, C))
    for b in range(B):
        for t in range(T):
            xprev = x[b, :t + 1]
            xbow[b, t] = torch.mean(xprev, 0)
    wei = torch.tril(torch.ones(T, T))
    wei = wei / wei.sum(1, keepdim=True)
    xbow2 = wei @ x
    print(torch.allclose(xbow, xbow2), xbow[0])
    tril = torch.tril(torch.ones(T, T))
    wei = torch.zeros((T, T))
    wei = wei.masked_fill(tril == 0, float('-inf'))
    print(wei)
    wei = F.softmax(wei, dim=-1)
    xbow3 = wei @ x
    print(torch.allclose(xbow, xbow3), wei)
    # version 4: self-attention, one head
    torch.manual_seed(1337)
    B, T, C = 4, 8, 32
    x = torch.randn(B, T, C)
    head_size = 16
    key = torch.nn.Linear(C, head_size, bias=False)
    query = torch.nn.Linear(C, head_size, bias=False)
    value = torch.nn.Linear(C, head_size, bias=False)
    k = key(x)
    q = query(x)
    wei = q @ k.transpose(-2, -1) * head_size**-0.5
    tril = torch.tril(torch.ones(T, T))
    wei = wei.masked_fill(tril == 0, float('-inf'))
    wei = F.softmax(wei, dim=-1)
    out = wei @ value(x)
    print(out.shape, wei[0])
    print(k.var(), q.var(), wei.var())
    print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1))
    print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1))

    class LayerNorm1d:  # (used to be BatchNorm1d)

        def __init__(self, dim, eps=1e-5, momentum=0.1):
            self.eps = eps
            self.gamma = torch.ones(dim)
            self.beta = torch.zeros(dim)

        def __call__(self, x):
            xmean = x.mean(1, keepdim=True)  # batch mean
            xvar = x.var(1, keepdim=True)  # batch variance
            xhat = (x - xmean) / torch.sqrt(xvar + self.eps)  # normalize to unit variance
            self.out = self.gamma * xhat + self.beta
            return self.out

        def parameters(self):
            return [self.gamma, self.beta]

    torch.manual_seed(1337)
    module = LayerNorm1d(100)
    x = torch.randn(32, 100)  # batch size 32 of 100-dimensional vectors
    x = module(x)
    print(x.shape, x[:, 0].mean(), x[:, 0].std(), x[0, :].mean(), x[0, :].std())


def bigram(torch, steps=100):
    """The lecture's bigram model (``bigram.py``): an embedding table read as logits."""
    nn = torch.nn
    F = torch.nn.functional
    torch.manual_seed(1337)
    vocab_size, encode, decode, train_data, val_data = data(torch)
    batch_size, block_size = 4, 8
    print(len(train_data), len(val_data), vocab_size, train_data[:block_size + 1])

    def get_batch(split):
        data = train_data if split == 'train' else val_data
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
        return x, y

    x = train_data[:block_size]
    y = train_data[1:block_size + 1]
    for t in range(block_size):
        context = x[:t + 1]
        target = y[t]
        print(f"when input is {context} the target: {target}")
    xb, yb = get_batch('train')
    print('inputs:', xb.shape, xb, 'targets:', yb.shape, yb, sep='\n')
    for b in range(2):  # batch dimension
        for t in range(block_size):  # time dimension
            context = xb[b, :t + 1]
            target = yb[b, t]
            print(f"when input is {context.tolist()} the target: {target}")

    class BigramLanguageModel(nn.Module):

        def __init__(self, vocab_size):
            super().__init__()
            self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)

        def forward(self, idx, targets=None):
            logits = self.token_embedding_table(idx)  # (B,T,C)
            if targets is None:
                loss = None
            else:
                B, T, C = logits.shape
                logits = logits.view(B * T, C)
                targets = targets.view(B * T)
                loss = F.cross_entropy(logits, targets)
            return logits, loss

        def generate(self, idx, max_new_tokens):
            for _ in range(max_new_tokens):
                logits, loss = self(idx)
                logits = logits[:, -1, :]  # becomes (B, C)
                probs = F.softmax(logits, dim=-1)  # (B, C)
                idx_next = torch.multinomial(probs, num_samples=1)  # (B, 1)
                idx = torch.cat((idx, idx_next), dim=1)  # (B, T+1)
            return idx

    m = BigramLanguageModel(vocab_size)
    logits, loss = m(xb, yb)
    print(m, logits.shape, loss)
    idx = torch.zeros((1, 1), dtype=torch.long)
    print(decode(m.generate(idx, max_new_tokens=100)[0].tolist()))
    optimizer = torch.optim.AdamW(m.parameters(), lr=1e-3)
    batch_size = 32
    for steps in range(steps):
        xb, yb = get_batch('train')
        logits, loss = m(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    print(loss.item())
    print(decode(m.generate(idx=torch.zeros((1, 1), dtype=torch.long),
                            max_new_tokens=100)[0].tolist()))


def gpt(torch, max_iters=30, new_tokens=200):
    """The lecture's ``gpt.py``, its code unchanged, at n_embd=32, n_head=4, n_layer=2,
    block_size=8, dropout=0.2."""
    nn = torch.nn
    F = torch.nn.functional
    # hyperparameters
    batch_size = 16  # how many independent sequences will we process in parallel?
    block_size = 8  # what is the maximum context length for predictions?
    eval_interval = 10
    learning_rate = 1e-3
    device = 'cuda' if torch.cuda.is_available() else 'cpu'
    eval_iters = 5
    n_embd = 32
    n_head = 4
    n_layer = 2
    dropout = 0.2
    # ------------

    torch.manual_seed(1337)
    vocab_size, encode, decode, train_data, val_data = data(torch)

    # data loading
    def get_batch(split):
        # generate a small batch of data of inputs x and targets y
        data = train_data if split == 'train' else val_data
        ix = torch.randint(len(data) - block_size, (batch_size,))
        x = torch.stack([data[i:i + block_size] for i in ix])
        y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
        x, y = x.to(device), y.to(device)
        return x, y

    @torch.no_grad()
    def estimate_loss():
        out = {}
        model.eval()
        for split in ['train', 'val']:
            losses = torch.zeros(eval_iters)
            for k in range(eval_iters):
                X, Y = get_batch(split)
                logits, loss = model(X, Y)
                losses[k] = loss.item()
            out[split] = losses.mean()
        model.train()
        return out

    class Head(nn.Module):
        """ one head of self-attention """

        def __init__(self, head_size):
            super().__init__()
            self.key = nn.Linear(n_embd, head_size, bias=False)
            self.query = nn.Linear(n_embd, head_size, bias=False)
            self.value = nn.Linear(n_embd, head_size, bias=False)
            self.register_buffer('tril', torch.tril(torch.ones(block_size, block_size)))

            self.dropout = nn.Dropout(dropout)

        def forward(self, x):
            # input of size (batch, time-step, channels)
            # output of size (batch, time-step, head size)
            B, T, C = x.shape
            k = self.key(x)   # (B,T,hs)
            q = self.query(x)  # (B,T,hs)
            # compute attention scores ("affinities")
            wei = q @ k.transpose(-2, -1) * k.shape[-1]**-0.5  # (B, T, hs) @ (B, hs, T) -> (B, T, T)
            wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))  # (B, T, T)
            wei = F.softmax(wei, dim=-1)  # (B, T, T)
            wei = self.dropout(wei)
            # perform the weighted aggregation of the values
            v = self.value(x)  # (B,T,hs)
            out = wei @ v  # (B, T, T) @ (B, T, hs) -> (B, T, hs)
            return out

    class MultiHeadAttention(nn.Module):
        """ multiple heads of self-attention in parallel """

        def __init__(self, num_heads, head_size):
            super().__init__()
            self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
            self.proj = nn.Linear(head_size * num_heads, n_embd)
            self.dropout = nn.Dropout(dropout)

        def forward(self, x):
            out = torch.cat([h(x) for h in self.heads], dim=-1)
            out = self.dropout(self.proj(out))
            return out

    class FeedFoward(nn.Module):
        """ a simple linear layer followed by a non-linearity """

        def __init__(self, n_embd):
            super().__init__()
            self.net = nn.Sequential(
                nn.Linear(n_embd, 4 * n_embd),
                nn.ReLU(),
                nn.Linear(4 * n_embd, n_embd),
                nn.Dropout(dropout),
            )

        def forward(self, x):
            return self.net(x)

    class Block(nn.Module):
        """ Transformer block: communication followed by computation """

        def __init__(self, n_embd, n_head):
            # n_embd: embedding dimension, n_head: the number of heads we'd like
            super().__init__()
            head_size = n_embd // n_head
            self.sa = MultiHeadAttention(n_head, head_size)
            self.ffwd = FeedFoward(n_embd)
            self.ln1 = nn.LayerNorm(n_embd)
            self.ln2 = nn.LayerNorm(n_embd)

        def forward(self, x):
            x = x + self.sa(self.ln1(x))
            x = x + self.ffwd(self.ln2(x))
            return x

    class GPTLanguageModel(nn.Module):

        def __init__(self):
            super().__init__()
            # each token directly reads off the logits for the next token from a lookup table
            self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
            self.position_embedding_table = nn.Embedding(block_size, n_embd)
            self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])
            self.ln_f = nn.LayerNorm(n_embd)  # final layer norm
            self.lm_head = nn.Linear(n_embd, vocab_size)

            # better init, not covered in the original GPT video, but important, will cover in followup video
            self.apply(self._init_weights)

        def _init_weights(self, module):
            if isinstance(module, nn.Linear):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
                if module.bias is not None:
                    torch.nn.init.zeros_(module.bias)
            elif isinstance(module, nn.Embedding):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

        def forward(self, idx, targets=None):
            B, T = idx.shape

            # idx and targets are both (B,T) tensor of integers
            tok_emb = self.token_embedding_table(idx)  # (B,T,C)
            pos_emb = self.position_embedding_table(torch.arange(T, device=device))  # (T,C)
            x = tok_emb + pos_emb  # (B,T,C)
            x = self.blocks(x)  # (B,T,C)
            x = self.ln_f(x)  # (B,T,C)
            logits = self.lm_head(x)  # (B,T,vocab_size)

            if targets is None:
                loss = None
            else:
                B, T, C = logits.shape
                logits = logits.view(B * T, C)
                targets = targets.view(B * T)
                loss = F.cross_entropy(logits, targets)

            return logits, loss

        def generate(self, idx, max_new_tokens):
            # idx is (B, T) array of indices in the current context
            for _ in range(max_new_tokens):
                # crop idx to the last block_size tokens
                idx_cond = idx[:, -block_size:]
                # get the predictions
                logits, loss = self(idx_cond)
                # focus only on the last time step
                logits = logits[:, -1, :]  # becomes (B, C)
                # apply softmax to get probabilities
                probs = F.softmax(logits, dim=-1)  # (B, C)
                # sample from the distribution
                idx_next = torch.multinomial(probs, num_samples=1)  # (B, 1)
                # append sampled index to the running sequence
                idx = torch.cat((idx, idx_next), dim=1)  # (B, T+1)
            return idx

    model = GPTLanguageModel()
    m = model.to(device)
    # print the number of parameters in the model
    print(sum(p.numel() for p in m.parameters()) / 1e6, 'M parameters')
    print(model)
    print(list(model.state_dict())[:12], len(model.state_dict()))

    # create a PyTorch optimizer
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)

    for iter in range(max_iters):

        # every once in a while evaluate the loss on train and val sets
        if iter % eval_interval == 0 or iter == max_iters - 1:
            losses = estimate_loss()
            print(f"step {iter}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")

        # sample a batch of data
        xb, yb = get_batch('train')

        # evaluate the loss
        logits, loss = model(xb, yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

    # generate from the model
    context = torch.zeros((1, 1), dtype=torch.long, device=device)
    print(decode(m.generate(context, max_new_tokens=new_tokens)[0].tolist()))
    return model


def nanogpt_style(torch, steps=8, new_tokens=60):
    """A model written the way nanoGPT's ``model.py`` writes it: one ``c_attn`` Linear
    split into q, k, v, heads as a view and a transpose, the causal mask a (1, 1, T, T)
    buffer, GELU, a ``ModuleDict`` holding a ``ModuleList``, the embedding tied to the
    head (``wte.weight = lm_head.weight``), residual projections initialised with a
    smaller std, AdamW with two parameter groups (decay for matrices only), and sampling
    with a temperature. (Attention is the explicit path here; nanoGPT's flash path, through
    ``F.scaled_dot_product_attention``, is in public_tutorials.nanogpt_train.)"""
    import math

    nn = torch.nn
    F = torch.nn.functional
    n_embd, n_head, n_layer, block_size = 24, 3, 2, 8
    torch.manual_seed(1337)
    vocab_size, encode, decode, train_data, val_data = data(torch)

    class CausalSelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=False)
            self.c_proj = nn.Linear(n_embd, n_embd, bias=False)
            self.attn_dropout = nn.Dropout(0.1)
            self.resid_dropout = nn.Dropout(0.1)
            self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size))
                                 .view(1, 1, block_size, block_size))

        def forward(self, x):
            B, T, C = x.size()
            q, k, v = self.c_attn(x).split(n_embd, dim=2)
            k = k.view(B, T, n_head, C // n_head).transpose(1, 2)
            q = q.view(B, T, n_head, C // n_head).transpose(1, 2)
            v = v.view(B, T, n_head, C // n_head).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))
            att = self.attn_dropout(F.softmax(att, dim=-1))
            y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
            return self.resid_dropout(self.c_proj(y))

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=False)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=False)
            self.dropout = nn.Dropout(0.1)

        def forward(self, x):
            return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln_1 = nn.LayerNorm(n_embd, bias=False)
            self.attn = CausalSelfAttention()
            self.ln_2 = nn.LayerNorm(n_embd, bias=False)
            self.mlp = MLP()

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.transformer = nn.ModuleDict(dict(
                wte=nn.Embedding(vocab_size, n_embd),
                wpe=nn.Embedding(block_size, n_embd),
                drop=nn.Dropout(0.1),
                h=nn.ModuleList([Block() for _ in range(n_layer)]),
                ln_f=nn.LayerNorm(n_embd, bias=False),
            ))
            self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
            self.transformer.wte.weight = self.lm_head.weight  # weight tying
            self.apply(self._init_weights)
            for pn, p in self.named_parameters():
                if pn.endswith('c_proj.weight'):
                    torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

        def _init_weights(self, module):
            if isinstance(module, (nn.Linear, nn.Embedding)):
                torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

        def forward(self, idx, targets=None):
            b, t = idx.size()
            pos = torch.arange(0, t, dtype=torch.long)
            x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
            for block in self.transformer.h:
                x = block(x)
            x = self.transformer.ln_f(x)
            if targets is None:
                return self.lm_head(x[:, [-1], :]), None
            logits = self.lm_head(x)
            return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1),
                                           ignore_index=-1)

        @torch.no_grad()
        def generate(self, idx, max_new_tokens, temperature=1.0):
            for _ in range(max_new_tokens):
                logits, _ = self(idx[:, -block_size:])
                probs = F.softmax(logits[:, -1, :] / temperature, dim=-1)
                idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
            return idx

    model = GPT()
    params = {pn: p for pn, p in model.named_parameters() if p.requires_grad}
    decay = [p for n, p in params.items() if p.dim() >= 2]
    nodecay = [p for n, p in params.items() if p.dim() < 2]
    print(f"num decayed parameter tensors: {len(decay)}, with {sum(p.numel() for p in decay):,} parameters")
    print(f"num non-decayed parameter tensors: {len(nodecay)}, with {sum(p.numel() for p in nodecay):,} parameters")
    print(model.transformer.h[0], len(model.state_dict()), list(model.transformer.keys()))
    optimizer = torch.optim.AdamW([{'params': decay, 'weight_decay': 0.1},
                                   {'params': nodecay, 'weight_decay': 0.0}],
                                  lr=3e-3, betas=(0.9, 0.95))
    for step in range(steps):
        ix = torch.randint(len(train_data) - block_size, (12,))
        x = torch.stack([train_data[i:i + block_size] for i in ix])
        y = torch.stack([train_data[i + 1:i + 1 + block_size] for i in ix])
        logits, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        print(f"iter {step}: loss {loss.item():.4f}")
    model.eval()
    out = model.generate(torch.zeros((1, 1), dtype=torch.long), new_tokens, temperature=0.8)
    print(decode(out[0].tolist()))

"""A program in the style of PyTorch's sequence tutorials, run as ``python
sequence_tutorials_program.py torch`` or ``... minigrad`` (tests/nn/test_nn_sequence_programs.py
compares the two printouts): "Sequence Models and Long Short-Term Memory Networks" (an LSTM
stepped by hand and over a whole sequence; the LSTM part-of-speech tagger trained 30
epochs), "NLP From Scratch: Translation with a Sequence to Sequence Network and Attention"
(a GRU encoder, Bahdanau attention, a GRU decoder fed its own top-1 guesses), and a
TransformerEncoder (with PyTorch's enable_nested_tensor warning).

The LSTM's outputs are printed as they are: PyTorch's float32 LSTM output shows
grad_fn=<MkldnnRnnLayerBackward0>, its oneDNN node, and so does minigrad's.
"""
import sys
lib = sys.argv[1]
torch = __import__(lib)
nn = torch.nn
F = torch.nn.functional
torch.manual_seed(1)
# "Sequence Models and LSTM Networks" tutorial
lstm = nn.LSTM(3, 3)
inputs = [torch.randn(1, 3) for _ in range(5)]
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (torch.randn(1, 1, 3), torch.randn(1, 1, 3))
out, hidden = lstm(inputs, hidden)
print(out)
print(hidden[0], hidden[1])
training_data = [("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
                 ("Everybody read that book".split(), ["NN", "V", "DET", "NN"])]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
def prepare_sequence(seq, to_ix):
    return torch.tensor([to_ix[w] for w in seq], dtype=torch.long)
class LSTMTagger(nn.Module):
    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)
    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        return F.log_softmax(tag_space, dim=1)
model = LSTMTagger(6, 6, len(word_to_ix), len(tag_to_ix))
print(model)
loss_function = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
with torch.no_grad():
    print(model(prepare_sequence(training_data[0][0], word_to_ix)))
for epoch in range(30):
    for sentence, tags in training_data:
        model.zero_grad()
        loss = loss_function(model(prepare_sequence(sentence, word_to_ix)), prepare_sequence(tags, tag_to_ix))
        loss.backward()
        optimizer.step()
with torch.no_grad():
    print(model(prepare_sequence(training_data[0][0], word_to_ix)))
# translation tutorial's attention decoder step
class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size); self.Ua = nn.Linear(hidden_size, hidden_size); self.Va = nn.Linear(hidden_size, 1)
    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, keys), weights
enc = nn.GRU(5, 5, batch_first=True); emb = nn.Embedding(7, 5); att = BahdanauAttention(5); dec = nn.GRU(10, 5, batch_first=True); outl = nn.Linear(5, 7)
x = torch.tensor([[1, 2, 3, 4]])
eo, eh = enc(nn.Dropout(0.1)(emb(x)))
dec_in = torch.empty(1, 1, dtype=torch.long).fill_(0); h = eh; outs = []
for i in range(3):
    e = emb(dec_in); q = h.permute(1, 0, 2)
    ctx, w = att(q, eo)
    o, h = dec(torch.cat((e, ctx), dim=2), h)
    o = outl(o); outs.append(o)
    _, topi = o.topk(1); dec_in = topi.squeeze(-1).detach()
print(F.log_softmax(torch.cat(outs, dim=1), dim=-1))
print(w)
enc_layer = nn.TransformerEncoderLayer(d_model=8, nhead=2)
te = nn.TransformerEncoder(enc_layer, num_layers=2)
print(te(torch.randn(3, 2, 8)).shape, sum(p.numel() for p in te.parameters()))

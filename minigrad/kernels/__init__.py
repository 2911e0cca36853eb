"""Floor 1: NumPy code that computes as PyTorch's CPU kernels compute, bit for bit and
at speed. Nothing here knows about tensors, graphs or PyTorch's error texts; the op
classes (``minigrad/ops/``) call these functions from their ``forward`` and
``backward``, so that the classes read as the math.

| module        | what lives there                                                     |
|---------------|----------------------------------------------------------------------|
| arithmetic    | float16 times a scalar, fused multiply-add, powers (threads)         |
| pointwise     | exp, log, sin, cos, tanh, sigmoid (threads), relu's -0, maximum's    |
|               | ties, their backwards                                                |
| softmax       | softmax, log_softmax, logsumexp, their backwards (threads, by rows)  |
| special       | tan, asin, atan2, sinh, asinh, erf, erfinv, logit, xlogy, lerp, ...  |
| loss          | binary cross-entropy with logits (threads)                           |
| linalg        | the matrix product's rounding                                        |
| conv          | convolution as windows and one matrix product (im2col, col2im),      |
|               | pooling summed in PyTorch's order                                    |
| summation     | sums in PyTorch's order (its last bits)                              |
| layout        | strides and storage offsets as PyTorch counts them                   |
| threads       | big kernels split across cores (parts, rows); set_num_threads        |
| float_errors  | NumPy's floating-point warnings, off while minigrad computes         |
| fma           | a * b + c rounded once (float32 and float64), as an FMA instruction |
| random        | PyTorch's CPU generator (mt19937) and its distributions, bit for bit |
| meta          | the meta device's arrays: a shape and a dtype over one element       |
"""

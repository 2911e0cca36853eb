"""Floor 1: NumPy code that computes as PyTorch's CPU kernels compute, bit for bit and
at speed. Nothing here knows about tensors, graphs or PyTorch's error texts; the op
classes (``minigrad/ops/``) call these functions from their ``forward`` and
``backward``, so that the classes read as the math.

| module        | what lives there                                                     |
|---------------|----------------------------------------------------------------------|
| arithmetic    | float16 times a scalar, fused multiply-add, powers by multiplication |
| pointwise     | sigmoid, tanh (threads), relu's -0, maximum's ties, their backwards  |
| linalg        | the matrix product's rounding                                        |
| summation     | sums in PyTorch's order (its last bits)                              |
| layout        | strides and storage offsets as PyTorch counts them                   |
| threads       | big elementwise kernels split across cores; set_num_threads          |
| float_errors  | NumPy's floating-point warnings, off while minigrad computes         |
"""

"""Floor 3: PyTorch's rules around any op, which the op classes leave out.

| module      | what lives there                                                        |
|-------------|-------------------------------------------------------------------------|
| conversion  | Python data read as ``torch.tensor`` reads it (dtype inference, errors)  |
| math_dtypes | the dtype errors of hypot, logaddexp, lerp, heaviside, float_power_      |
| power       | ``x ** number``'s range checks, and its value without a node (data)     |
"""

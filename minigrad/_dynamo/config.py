"""``torch._dynamo.config``: the settings programs read or set. minigrad compiles
nothing (see eval_frame.py), so they are kept with PyTorch's defaults and change
nothing."""

cache_size_limit = 8
recompile_limit = 8
accumulated_cache_size_limit = 256
accumulated_recompile_limit = 256
suppress_errors = False
verbose = False
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
automatic_dynamic_shapes = True
assume_static_by_default = True
optimize_ddp = True
inline_inbuilt_nn_modules = True

"""The ``meet`` tier (``meet_programs.py``, session 15): random programs where ops meet
edge inputs (promotion chains of every dtype with numbers and 0-dim tensors, small ints
that wrap, float16 chains, empty tensors through every reduction with dims and keepdim,
inputs that are not contiguous, repeated indices into the index ops then backward,
where/masks/comparisons with NaN, printing at extremes), run as text under PyTorch 2.13
and minigrad, every line run also after one failed, and compared line by line: values,
dtypes, shapes, strides, printed text, grad_fn names, warnings, error types and texts.

Of the first 6,000 seeds, 265 parted at first (and 165 of the next 10,000); the fixes of session 15 (put/put_ and
take's PutBackward0, take_along_dim's negative indices, scatter's reduce=, where(cond)
alone, view(dtype), untyped_storage, fmax/fmin ties, index_add's alpha errors, sort's
and where's and lerp's argument errors, isclose/allclose/ldexp's TypeErrors, the
cast-back and dtype= errors of in-place and reducing ops, cummax/cummin of empty and
0-dim tensors, float(x)'s warning order, degrees-of-freedom warnings, float16 casts
without NumPy's warning, data_ptr of empty tensors, norms without an identity of empty
tensors, unique(dim=) of 0-dim ones, index_put's order of checks) leave the known
differences below, and beyond seed 2,000 (150 of 10,000 still part): strides (empty
results' size-0 dims, index_fill/index_put of transposed tensors, float16 leaves'
gradients), float16 gradients an ulp off, ldexp of large exponents (PyTorch's exact
scaling), a dtype's class name in Python's errors, missing arguments' texts. Session 16
fixed the missing arguments (rules/parser.py), ldexp, the empty results' strides and
index_fill/index_put's: 13 of the known seeds moved to FIXED."""

from __future__ import annotations

import pytest

from meet_programs import one_meet_program

# Seeds that parted in the first scans and agree since the session's fixes (each a
# program of the tier; a regression makes one part again).
FIXED = [5, 17, 29, 53, 125, 137, 150, 157, 165, 182, 197, 199, 220, 221, 247, 253, 261,
         272, 309, 316, 373, 374, 397, 429, 446, 454, 460, 493, 509, 533, 542, 545, 552, 565,
         605, 606, 630, 662, 669, 672, 685, 686, 702, 704, 720, 725, 728, 733, 735, 740,
         797, 798, 821, 840, 845, 847, 848, 853, 896, 897, 981, 982, 991, 992, 1014, 1040,
         1053, 1057, 1063, 1069, 1086, 1109, 1141, 1142, 1146, 1160, 1180, 1181, 1205, 1208,
         1213, 1215, 1237, 1278, 1293, 1295, 1309, 1338, 1351, 1357, 1370, 1372, 1373, 1385,
         1389, 1391, 1393, 1398, 1406, 1413, 1414, 1420, 1429, 1444, 1445, 1453, 1461, 1464,
         1469, 1478, 1481, 1493, 1502, 1509, 1510, 1517, 1522, 1532, 1533, 1554, 1558, 1581,
         1601, 1613, 1661, 1696, 1701, 1768, 1776, 1781, 1796, 1797, 1813, 1821, 1828, 1829,
         1830, 1853, 1928, 1930, 1933, 1941, 1949, 1957, 1965, 1997, 2005, 2037, 2045, 2093,
         2128, 2132, 2149, 2160, 2215, 2217, 2237, 2261, 2284, 2286, 2294, 2301, 2309, 2332,
         2333, 2357, 2381, 2385, 2412, 2413, 2418, 2421, 2454, 2476, 2493, 2501, 2521, 2552,
         2557, 2561, 2577, 2578, 2590, 2606, 2613, 2621, 2629, 2644, 2669, 2685, 2700, 2708,
         2711, 2725, 2733, 2748, 2773, 2782, 2797, 2805, 2813, 2821, 2837, 2877, 2880, 2885,
         2901, 2905, 2928, 2935, 2940, 2941, 2952, 2970, 2981, 2997, 3063, 3100, 3157, 3199,
         3200, 3240, 3303, 3332, 3468, 3549, 3615, 3729, 3744, 3768, 3916, 3917, 3976, 3977,
         3999, 4077, 4087, 4132, 4192, 4232, 4313, 4373, 4456, 4469, 4496, 4600, 4648, 4685,
         4692, 4748, 4769, 4792, 4824, 4904, 4920, 5007, 5061, 5152, 5160, 5165, 5176, 5288,
         5296, 5313, 5349, 5408, 5480, 5495, 5768, 5783, 5840, 5848, 5856, 5857, 5873, 5984,
         6992, 7149, 7821, 8109, 8624, 8904, 11160, 12000, 12264, 12477, 13200, 13264, 13381,
         14981, 15016,
         # session 16 (fuzz10): the parser's missing arguments, empty results' and
         # index_fill/index_put's strides
         216, 248, 328, 912, 965, 1168, 1541, 1576, 1600, 1616, 1645, 1672, 1940,
         # and of seeds 20,000 to 23,000 (half-precision matmul's +0, bitwise ops' layout,
         # ldexp's warning before its error, a float16 == or += a large int, kthvalue's
         # strides, nansum's dtype=torch.bool)
         969, 20028, 20281, 20593, 20728, 21305, 22280, 22849,
         # session 17 (fuzz11): a dtype's class named 'torch.dtype' in Python's errors,
         # max() of -0. and 0. as PyTorch's vector lanes pick; of seeds 24,000-30,000: in-place
         # methods and functions given what is no operand, aminmax() of -0. and 0., logsumexp
         # over no dims, bincount of 2**63 - 1, clamp_'s cast before the shared memory, a half
         # var_mean past its range, copysign's two signatures
         177, 1977, 1985, 863, 20799, 21963, 24905, 25281, 25633, 25921, 26041, 26520,
         26696, 26713, 27314, 27361, 27465, 29105, 29680, 29969,
         # session 17 (fuzz12), of seeds 30,000-32,000: masked_fill_'s refusals before its
         # warning, the layout of a clamp whose operands the iterator converts, an out=
         # resized to an empty shape, a long past float16's range with a half scalar; of
         # 32,000-35,000: logsumexp of an empty tensor over no dims, an expanded bool written
         # in place refused for its memory before its dtype
         30249, 31966, 30724, 31484, 31961, 34976, 34369,
         # session 18 (fuzz13): a gradient cast to its input's dtype laid out as torch's .to();
         # of 35,000-39,000: an in-place missing derivative's sequence number, a float16
         # layer_norm's bias of 0, ldexp of an expanded tensor laid out as torch's
         30147, 31083, 37313, 38131, 37273,
         # session 19 (fuzz14): an empty input's expanded gradient with strides of 0, where's
         # and clamp's gradients laid out as torch's iterator, ldexp's resize warning only for
         # integer exponents, a float16 lerp's gradient times its weight in float32; of
         # 39,000-42,000: the same lerp, an integer dtype= of a NaN without NumPy's warning, an
         # elementwise op's resized out= laid out as its result
         32888, 35633, 36000, 37875, 38209, 1235, 39011, 40643, 40680, 39936, 40924, 41036,
         41497,
         # session 20 (fuzz15): norm(p=3)'s gradient of a transposed x (pow(x, 1)'s copy),
         # empty vector_norm and mode results row-major, unique along a dim laid out as
         # torch's unique_dim; of 42,000-43,000: masked_scatter row-major
         39912, 40048, 41640, 41968, 42184, 42462, 42774,
         # session 21 (fuzz16), of 43,000-48,000: median() of -0. and 0. as std::nth_element
         43382,
         # session 22 (fuzz17): a 0-dim log_softmax's gradient of -0. (torch's 0.),
         # scatter_reduce's amin keeping the first of -0. and 0.
         44651, 46429]

# Left, each checked to part still (strict): what differs and why it is not fixed.
_STRIDES = "a result's strides (a layout PyTorch picks otherwise; the values agree)"
KNOWN = {
    94: _STRIDES + ": masked_select of a transposed tensor",
    128: "cummin's gradient of an empty tensor: PyTorch returns the input itself "
         "(requires_grad=True), minigrad zeros",
    256: "cummax's gradient of an empty tensor (as 128)",
    1574: "PyTorch's sgn gradient is a ZeroTensor, whose tolist() refuses 'unallocated "
          "storage'; minigrad's gradient is ordinary zeros",
    1870: "a ZeroTensor gradient (as 1574)",
    44422: "a ZeroTensor gradient (sgn's) accumulated into by a second backward: PyTorch "
           "raises 'ZeroTensors are immutable', minigrad adds zeros",
}
BLOCKS = [0, 500, 1000, 1500]


@pytest.mark.parametrize("start", BLOCKS, ids=[f"meet-{s}" for s in BLOCKS])
def test_meet_programs_agree_with_torch(start):
    parted = {seed: problems for seed in range(start, start + 500)
              if seed not in KNOWN and (problems := one_meet_program(seed))}
    assert parted == {}


def test_fixed_seeds_agree_with_torch():
    parted = {seed: problems for seed in FIXED if (problems := one_meet_program(seed))}
    assert parted == {}


@pytest.mark.parametrize("seed", sorted(KNOWN))
def test_known_differences_still_differ(seed):
    assert one_meet_program(seed)

"""torch 2.13's argument-parser signatures of the Tensor methods and torch functions of the op
table and of the factories, as torch's Python bindings declare them (torchgen's
``signature_str`` of native_functions.yaml and deprecated.yaml, in torch's order; deprecated
overloads last, marked ``|deprecated``).  ``_argparser`` reads them to word a bad call's
TypeError as torch does.  A method that takes no arguments has ``()``.

Data, not code, generated from the torchgen that ships with torch 2.13
(``torchgen/packaged/autograd/gen_python_functions.py``: ``load_signatures`` of the native
functions it binds, ``group_overloads`` per name, ``signature_str(symint=True)``), for the
names torch binds in C (not torch/_tensor.py's or torch/functional.py's Python functions);
``copy_``, ``nonzero``, ``to``, ``tensor`` and ``as_tensor``, which torch binds by hand, are
copied from its bindings.  ``CALLED``: functions that torch's Python code calls with arguments
of its own (``Tensor.split`` calls ``_VF.split(self, split_size, dim)``, ``torch.norm``
``linalg.vector_norm``).
``tests/test_bad_input.py::test_signature_table_is_torchs`` checks every entry of ``METHODS``
and ``FUNCTIONS`` against torch.
"""

__all__ = ["METHODS", "FUNCTIONS", "CALLED"]

METHODS = {
    "abs": (),
    "abs_": (),
    "absolute": (),
    "absolute_": (),
    "acos": (),
    "acos_": (),
    "acosh": (),
    "acosh_": (),
    "add": ("add(Tensor other, *, Scalar alpha=1)", "add(Scalar alpha, Tensor other)|deprecated"),
    "add_": (
        "add_(Tensor other, *, Scalar alpha=1)",
        "add_(Scalar alpha, Tensor other)|deprecated",
    ),
    "addbmm": (
        "addbmm(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)",
        "addbmm(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated",
        "addbmm(Scalar beta, Tensor batch1, Tensor batch2)|deprecated",
    ),
    "addbmm_": (
        "addbmm_(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)",
        "addbmm_(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated",
        "addbmm_(Scalar beta, Tensor batch1, Tensor batch2)|deprecated",
    ),
    "addcdiv": (
        "addcdiv(Tensor tensor1, Tensor tensor2, *, Scalar value=1)",
        "addcdiv(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated",
    ),
    "addcdiv_": (
        "addcdiv_(Tensor tensor1, Tensor tensor2, *, Scalar value=1)",
        "addcdiv_(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated",
    ),
    "addcmul": (
        "addcmul(Tensor tensor1, Tensor tensor2, *, Scalar value=1)",
        "addcmul(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated",
    ),
    "addcmul_": (
        "addcmul_(Tensor tensor1, Tensor tensor2, *, Scalar value=1)",
        "addcmul_(Scalar value, Tensor tensor1, Tensor tensor2)|deprecated",
    ),
    "addmm": (
        "addmm(Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)",
        "addmm(Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2)|deprecated",
        "addmm(Scalar beta, Tensor mat1, Tensor mat2)|deprecated",
    ),
    "addmm_": (
        "addmm_(Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)",
        "addmm_(Scalar beta, Scalar alpha, Tensor mat1, Tensor mat2)|deprecated",
        "addmm_(Scalar beta, Tensor mat1, Tensor mat2)|deprecated",
    ),
    "addmv": (
        "addmv(Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1)",
        "addmv(Scalar beta, Scalar alpha, Tensor mat, Tensor vec)|deprecated",
        "addmv(Scalar beta, Tensor mat, Tensor vec)|deprecated",
    ),
    "addmv_": (
        "addmv_(Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1)",
        "addmv_(Scalar beta, Scalar alpha, Tensor mat, Tensor vec)|deprecated",
        "addmv_(Scalar beta, Tensor mat, Tensor vec)|deprecated",
    ),
    "addr": (
        "addr(Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1)",
        "addr(Scalar beta, Scalar alpha, Tensor vec1, Tensor vec2)|deprecated",
        "addr(Scalar beta, Tensor vec1, Tensor vec2)|deprecated",
    ),
    "addr_": (
        "addr_(Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1)",
        "addr_(Scalar beta, Scalar alpha, Tensor vec1, Tensor vec2)|deprecated",
        "addr_(Scalar beta, Tensor vec1, Tensor vec2)|deprecated",
    ),
    "all": (
        "all()",
        "all(IntArrayRef? dim=None, bool keepdim=False)",
        "all(int64_t dim, bool keepdim=False)",
    ),
    "amax": ("amax(IntArrayRef[1] dim=None, bool keepdim=False)",),
    "amin": ("amin(IntArrayRef[1] dim=None, bool keepdim=False)",),
    "aminmax": ("aminmax(*, int64_t? dim=None, bool keepdim=False)",),
    "angle": (),
    "any": (
        "any()",
        "any(IntArrayRef? dim=None, bool keepdim=False)",
        "any(int64_t dim, bool keepdim=False)",
    ),
    "arccos": (),
    "arccos_": (),
    "arccosh": (),
    "arccosh_": (),
    "arcsin": (),
    "arcsin_": (),
    "arcsinh": (),
    "arcsinh_": (),
    "arctan": (),
    "arctan2": ("arctan2(Tensor other)",),
    "arctan2_": ("arctan2_(Tensor other)",),
    "arctan_": (),
    "arctanh": (),
    "arctanh_": (),
    "argmax": ("argmax(int64_t? dim=None, bool keepdim=False)",),
    "argmin": ("argmin(int64_t? dim=None, bool keepdim=False)",),
    "argsort": (
        "argsort(*, bool stable, int64_t dim=-1, bool descending=False)",
        "argsort(int64_t dim=-1, bool descending=False)",
    ),
    "argwhere": (),
    "as_strided": (
        "as_strided(SymIntArrayRef size, SymIntArrayRef stride, SymInt? storage_offset=None)",
    ),
    "as_strided_": (
        "as_strided_(SymIntArrayRef size, SymIntArrayRef stride, SymInt? storage_offset=None)",
    ),
    "as_strided_scatter": (
        "as_strided_scatter(Tensor src, SymIntArrayRef size, SymIntArrayRef stride, "
        "SymInt? storage_offset=None)",
    ),
    "asin": (),
    "asin_": (),
    "asinh": (),
    "asinh_": (),
    "atan": (),
    "atan2": ("atan2(Tensor other)",),
    "atan2_": ("atan2_(Tensor other)",),
    "atan_": (),
    "atanh": (),
    "atanh_": (),
    "baddbmm": (
        "baddbmm(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)",
        "baddbmm(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated",
        "baddbmm(Scalar beta, Tensor batch1, Tensor batch2)|deprecated",
    ),
    "baddbmm_": (
        "baddbmm_(Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)",
        "baddbmm_(Scalar beta, Scalar alpha, Tensor batch1, Tensor batch2)|deprecated",
        "baddbmm_(Scalar beta, Tensor batch1, Tensor batch2)|deprecated",
    ),
    "bernoulli_": (
        "bernoulli_(Tensor p, *, Generator? generator=None)",
        "bernoulli_(double p=0.5, *, Generator? generator=None)",
    ),
    "bincount": ("bincount(Tensor? weights=None, SymInt minlength=0)",),
    "bitwise_and": ("bitwise_and(Tensor other)", "bitwise_and(Scalar other)"),
    "bitwise_and_": ("bitwise_and_(Tensor other)", "bitwise_and_(Scalar other)"),
    "bitwise_left_shift": ("bitwise_left_shift(Tensor other)", "bitwise_left_shift(Scalar other)"),
    "bitwise_left_shift_": (
        "bitwise_left_shift_(Tensor other)",
        "bitwise_left_shift_(Scalar other)",
    ),
    "bitwise_not": (),
    "bitwise_not_": (),
    "bitwise_or": ("bitwise_or(Tensor other)", "bitwise_or(Scalar other)"),
    "bitwise_or_": ("bitwise_or_(Tensor other)", "bitwise_or_(Scalar other)"),
    "bitwise_right_shift": (
        "bitwise_right_shift(Tensor other)",
        "bitwise_right_shift(Scalar other)",
    ),
    "bitwise_right_shift_": (
        "bitwise_right_shift_(Tensor other)",
        "bitwise_right_shift_(Scalar other)",
    ),
    "bitwise_xor": ("bitwise_xor(Tensor other)", "bitwise_xor(Scalar other)"),
    "bitwise_xor_": ("bitwise_xor_(Tensor other)", "bitwise_xor_(Scalar other)"),
    "bmm": ("bmm(Tensor mat2)",),
    "cauchy_": ("cauchy_(double median=0, double sigma=1, *, Generator? generator=None)",),
    "ceil": (),
    "ceil_": (),
    "cholesky_inverse": ("cholesky_inverse(bool upper=False)",),
    "cholesky_solve": ("cholesky_solve(Tensor input2, bool upper=False)",),
    "chunk": ("chunk(int64_t chunks, int64_t dim=0)",),
    "clamp": (
        "clamp(Tensor? min=None, Tensor? max=None)",
        "clamp(Scalar? min=None, Scalar? max=None)",
    ),
    "clamp_": (
        "clamp_(Tensor? min=None, Tensor? max=None)",
        "clamp_(Scalar? min=None, Scalar? max=None)",
    ),
    "clamp_max": ("clamp_max(Tensor max)", "clamp_max(Scalar max)"),
    "clamp_max_": ("clamp_max_(Tensor max)", "clamp_max_(Scalar max)"),
    "clamp_min": ("clamp_min(Tensor min)", "clamp_min(Scalar min)"),
    "clamp_min_": ("clamp_min_(Tensor min)", "clamp_min_(Scalar min)"),
    "clip": (
        "clip(Tensor? min=None, Tensor? max=None)",
        "clip(Scalar? min=None, Scalar? max=None)",
    ),
    "clip_": (
        "clip_(Tensor? min=None, Tensor? max=None)",
        "clip_(Scalar? min=None, Scalar? max=None)",
    ),
    "clone": ("clone(*, MemoryFormat? memory_format=None)",),
    "conj": (),
    "conj_physical": (),
    "conj_physical_": (),
    "copy_": (
        "copy_(Tensor other, bool non_blocking=False)",
        "copy_(Tensor other, bool async=False)|deprecated",
    ),
    "copysign": ("copysign(Tensor other)", "copysign(Scalar other)"),
    "copysign_": ("copysign_(Tensor other)", "copysign_(Scalar other)"),
    "cos": (),
    "cos_": (),
    "cosh": (),
    "cosh_": (),
    "cummax": ("cummax(int64_t dim)",),
    "cummin": ("cummin(int64_t dim)",),
    "cumprod": ("cumprod(int64_t dim, *, ScalarType? dtype=None)",),
    "cumprod_": ("cumprod_(int64_t dim, *, ScalarType? dtype=None)",),
    "cumsum": ("cumsum(int64_t dim, *, ScalarType? dtype=None)",),
    "cumsum_": ("cumsum_(int64_t dim, *, ScalarType? dtype=None)",),
    "deg2rad": (),
    "deg2rad_": (),
    "det": (),
    "diag": ("diag(int64_t diagonal=0)",),
    "diag_embed": ("diag_embed(int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)",),
    "diagonal": ("diagonal(int64_t offset=0, int64_t dim1=0, int64_t dim2=1)",),
    "diagonal_scatter": (
        "diagonal_scatter(Tensor src, int64_t offset=0, int64_t dim1=0, int64_t dim2=1)",
    ),
    "digamma": (),
    "digamma_": (),
    "dist": ("dist(Tensor other, Scalar p=2)",),
    "div": (
        "div(Tensor other)",
        "div(Tensor other, *, c10::string_view? rounding_mode)",
        "div(Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "div_": (
        "div_(Tensor other)",
        "div_(Tensor other, *, c10::string_view? rounding_mode)",
        "div_(Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "divide": (
        "divide(Tensor other)",
        "divide(Tensor other, *, c10::string_view? rounding_mode)",
        "divide(Scalar other)",
        "divide(Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "divide_": (
        "divide_(Tensor other)",
        "divide_(Tensor other, *, c10::string_view? rounding_mode)",
        "divide_(Scalar other)",
        "divide_(Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "dot": ("dot(Tensor tensor)",),
    "eq": ("eq(Tensor other)", "eq(Scalar other)"),
    "eq_": ("eq_(Tensor other)", "eq_(Scalar other)"),
    "erf": (),
    "erf_": (),
    "erfc": (),
    "erfc_": (),
    "erfinv": (),
    "erfinv_": (),
    "exp": (),
    "exp2": (),
    "exp2_": (),
    "exp_": (),
    "expand": ("expand(SymIntArrayRef size, *, bool implicit=False)",),
    "expm1": (),
    "expm1_": (),
    "exponential_": ("exponential_(double lambd=1, *, Generator? generator=None)",),
    "fill_": ("fill_(Tensor value)", "fill_(Scalar value)"),
    "flatten": ("flatten(int64_t start_dim=0, int64_t end_dim=-1)",),
    "flip": ("flip(IntArrayRef dims)",),
    "floor": (),
    "floor_": (),
    "floor_divide": ("floor_divide(Tensor other)", "floor_divide(Scalar other)"),
    "floor_divide_": ("floor_divide_(Tensor other)", "floor_divide_(Scalar other)"),
    "fmax": ("fmax(Tensor other)",),
    "fmin": ("fmin(Tensor other)",),
    "fmod": ("fmod(Tensor other)", "fmod(Scalar other)"),
    "fmod_": ("fmod_(Tensor other)", "fmod_(Scalar other)"),
    "frac": (),
    "frac_": (),
    "frexp": (),
    "gather": ("gather(int64_t dim, Tensor index, *, bool sparse_grad=False)",),
    "gcd": ("gcd(Tensor other)",),
    "gcd_": ("gcd_(Tensor other)",),
    "ge": ("ge(Tensor other)", "ge(Scalar other)"),
    "ge_": ("ge_(Tensor other)", "ge_(Scalar other)"),
    "geometric_": ("geometric_(double p, *, Generator? generator=None)",),
    "geqrf": (),
    "greater": ("greater(Tensor other)", "greater(Scalar other)"),
    "greater_": ("greater_(Tensor other)", "greater_(Scalar other)"),
    "greater_equal": ("greater_equal(Tensor other)", "greater_equal(Scalar other)"),
    "greater_equal_": ("greater_equal_(Tensor other)", "greater_equal_(Scalar other)"),
    "gt": ("gt(Tensor other)", "gt(Scalar other)"),
    "gt_": ("gt_(Tensor other)", "gt_(Scalar other)"),
    "heaviside": ("heaviside(Tensor values)",),
    "heaviside_": ("heaviside_(Tensor values)",),
    "hypot": ("hypot(Tensor other)",),
    "hypot_": ("hypot_(Tensor other)",),
    "i0": (),
    "i0_": (),
    "igamma": ("igamma(Tensor other)",),
    "igamma_": ("igamma_(Tensor other)",),
    "igammac": ("igammac(Tensor other)",),
    "igammac_": ("igammac_(Tensor other)",),
    "index_add": ("index_add(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)",),
    "index_add_": ("index_add_(int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1)",),
    "index_copy": ("index_copy(int64_t dim, Tensor index, Tensor source)",),
    "index_copy_": ("index_copy_(int64_t dim, Tensor index, Tensor source)",),
    "index_fill": (
        "index_fill(int64_t dim, Tensor index, Tensor value)",
        "index_fill(int64_t dim, Tensor index, Scalar value)",
    ),
    "index_fill_": (
        "index_fill_(int64_t dim, Tensor index, Tensor value)",
        "index_fill_(int64_t dim, Tensor index, Scalar value)",
    ),
    "index_put": (
        "index_put(c10::List<::std::optional<Tensor>> indices, Tensor values, "
        "bool accumulate=False)",
    ),
    "index_put_": (
        "index_put_(c10::List<::std::optional<Tensor>> indices, Tensor values, "
        "bool accumulate=False)",
    ),
    "index_reduce": (
        "index_reduce(int64_t dim, Tensor index, Tensor source, c10::string_view reduce, *, "
        "bool include_self=True)",
    ),
    "index_reduce_": (
        "index_reduce_(int64_t dim, Tensor index, Tensor source, c10::string_view reduce, *, "
        "bool include_self=True)",
    ),
    "index_select": ("index_select(int64_t dim, Tensor index)",),
    "isclose": (
        "isclose(Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)",
    ),
    "isfinite": (),
    "isinf": (),
    "isnan": (),
    "isneginf": (),
    "isposinf": (),
    "kthvalue": ("kthvalue(SymInt k, int64_t dim=-1, bool keepdim=False)",),
    "lcm": ("lcm(Tensor other)",),
    "lcm_": ("lcm_(Tensor other)",),
    "ldexp": ("ldexp(Tensor other)",),
    "ldexp_": ("ldexp_(Tensor other)",),
    "le": ("le(Tensor other)", "le(Scalar other)"),
    "le_": ("le_(Tensor other)", "le_(Scalar other)"),
    "lerp": ("lerp(Tensor end, Tensor weight)", "lerp(Tensor end, Scalar weight)"),
    "lerp_": ("lerp_(Tensor end, Tensor weight)", "lerp_(Tensor end, Scalar weight)"),
    "less": ("less(Tensor other)", "less(Scalar other)"),
    "less_": ("less_(Tensor other)", "less_(Scalar other)"),
    "less_equal": ("less_equal(Tensor other)", "less_equal(Scalar other)"),
    "less_equal_": ("less_equal_(Tensor other)", "less_equal_(Scalar other)"),
    "lgamma": (),
    "lgamma_": (),
    "log": (),
    "log10": (),
    "log10_": (),
    "log1p": (),
    "log1p_": (),
    "log2": (),
    "log2_": (),
    "log_": (),
    "log_normal_": ("log_normal_(double mean=1, double std=2, *, Generator? generator=None)",),
    "log_softmax": ("log_softmax(int64_t dim, ScalarType? dtype=None)",),
    "logaddexp": ("logaddexp(Tensor other)",),
    "logaddexp2": ("logaddexp2(Tensor other)",),
    "logcumsumexp": ("logcumsumexp(int64_t dim)",),
    "logical_and": ("logical_and(Tensor other)",),
    "logical_and_": ("logical_and_(Tensor other)",),
    "logical_not": (),
    "logical_not_": (),
    "logical_or": ("logical_or(Tensor other)",),
    "logical_or_": ("logical_or_(Tensor other)",),
    "logical_xor": ("logical_xor(Tensor other)",),
    "logical_xor_": ("logical_xor_(Tensor other)",),
    "logit": ("logit(double? eps=None)",),
    "logit_": ("logit_(double? eps=None)",),
    "logsumexp": ("logsumexp(IntArrayRef[1] dim, bool keepdim=False)",),
    "lt": ("lt(Tensor other)", "lt(Scalar other)"),
    "lt_": ("lt_(Tensor other)", "lt_(Scalar other)"),
    "masked_fill": (
        "masked_fill(Tensor mask, Tensor value)",
        "masked_fill(Tensor mask, Scalar value)",
    ),
    "masked_fill_": (
        "masked_fill_(Tensor mask, Tensor value)",
        "masked_fill_(Tensor mask, Scalar value)",
    ),
    "masked_scatter": ("masked_scatter(Tensor mask, Tensor source)",),
    "masked_scatter_": ("masked_scatter_(Tensor mask, Tensor source)",),
    "masked_select": ("masked_select(Tensor mask)",),
    "matrix_exp": (),
    "max": ("max()", "max(Tensor other)", "max(int64_t dim, bool keepdim=False)"),
    "maximum": ("maximum(Tensor other)",),
    "mean": (
        "mean(*, ScalarType? dtype=None)",
        "mean(IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)",
    ),
    "median": ("median()", "median(int64_t dim, bool keepdim=False)"),
    "min": ("min()", "min(Tensor other)", "min(int64_t dim, bool keepdim=False)"),
    "minimum": ("minimum(Tensor other)",),
    "matmul": ("matmul(Tensor other)",),
    "mm": ("mm(Tensor mat2)",),
    "mode": ("mode(int64_t dim=-1, bool keepdim=False)",),
    "mul": ("mul(Tensor other)",),
    "mul_": ("mul_(Tensor other)",),
    "multiply": ("multiply(Tensor other)", "multiply(Scalar other)"),
    "multiply_": ("multiply_(Tensor other)", "multiply_(Scalar other)"),
    "mv": ("mv(Tensor vec)",),
    "nan_to_num": ("nan_to_num(double? nan=None, double? posinf=None, double? neginf=None)",),
    "nan_to_num_": ("nan_to_num_(double? nan=None, double? posinf=None, double? neginf=None)",),
    "nanmedian": ("nanmedian()", "nanmedian(int64_t dim, bool keepdim=False)"),
    "nansum": ("nansum(IntArrayRef[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)",),
    "narrow": (
        "narrow(int64_t dim, Tensor start, SymInt length)",
        "narrow(int64_t dim, SymInt start, SymInt length)",
    ),
    "narrow_copy": ("narrow_copy(int64_t dim, SymInt start, SymInt length)",),
    "ne": ("ne(Tensor other)", "ne(Scalar other)"),
    "ne_": ("ne_(Tensor other)", "ne_(Scalar other)"),
    "neg": (),
    "neg_": (),
    "negative": (),
    "negative_": (),
    "nextafter": ("nextafter(Tensor other)",),
    "nextafter_": ("nextafter_(Tensor other)",),
    "nonzero": ("nonzero()", "nonzero(*, bool as_tuple)"),
    "normal_": ("normal_(double mean=0, double std=1, *, Generator? generator=None)",),
    "not_equal": ("not_equal(Tensor other)", "not_equal(Scalar other)"),
    "not_equal_": ("not_equal_(Tensor other)", "not_equal_(Scalar other)"),
    "orgqr": ("orgqr(Tensor input2)",),
    "ormqr": ("ormqr(Tensor input2, Tensor input3, bool left=True, bool transpose=False)",),
    "permute": ("permute(IntArrayRef dims)",),
    "pow": ("pow(Tensor exponent)", "pow(Scalar exponent)"),
    "pow_": ("pow_(Tensor exponent)", "pow_(Scalar exponent)"),
    "prod": (
        "prod(*, ScalarType? dtype=None)",
        "prod(int64_t dim, bool keepdim=False, *, ScalarType? dtype=None)",
    ),
    "put": ("put(Tensor index, Tensor source, bool accumulate=False)",),
    "put_": ("put_(Tensor index, Tensor source, bool accumulate=False)",),
    "rad2deg": (),
    "rad2deg_": (),
    "random_": (
        "random_(*, Generator? generator=None)",
        "random_(int64_t from, int64_t? to, *, Generator? generator=None)",
        "random_(int64_t to, *, Generator? generator=None)",
    ),
    "reciprocal": (),
    "reciprocal_": (),
    "relu": (),
    "relu_": (),
    "remainder": ("remainder(Tensor other)", "remainder(Scalar other)"),
    "renorm": ("renorm(Scalar p, int64_t dim, Scalar maxnorm)",),
    "renorm_": ("renorm_(Scalar p, int64_t dim, Scalar maxnorm)",),
    "repeat": ("repeat(SymIntArrayRef repeats)",),
    "reshape": ("reshape(SymIntArrayRef shape)",),
    "resize_": ("resize_(SymIntArrayRef size, *, MemoryFormat? memory_format=None)",),
    "resize_as_": ("resize_as_(Tensor the_template, *, MemoryFormat? memory_format=None)",),
    "roll": ("roll(SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)",),
    "rot90": ("rot90(int64_t k=1, IntArrayRef dims={0,1})",),
    "round": ("round()", "round(*, int64_t decimals)"),
    "round_": ("round_()", "round_(*, int64_t decimals)"),
    "rsqrt": (),
    "rsqrt_": (),
    "scatter": (
        "scatter(int64_t dim, Tensor index, Tensor src)",
        "scatter(int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce)",
        "scatter(int64_t dim, Tensor index, Scalar value)",
        "scatter(int64_t dim, Tensor index, Scalar value, *, c10::string_view reduce)",
    ),
    "scatter_": (
        "scatter_(int64_t dim, Tensor index, Tensor src)",
        "scatter_(int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce)",
        "scatter_(int64_t dim, Tensor index, Scalar value)",
        "scatter_(int64_t dim, Tensor index, Scalar value, *, c10::string_view reduce)",
    ),
    "scatter_add": ("scatter_add(int64_t dim, Tensor index, Tensor src)",),
    "scatter_add_": ("scatter_add_(int64_t dim, Tensor index, Tensor src)",),
    "scatter_reduce": (
        "scatter_reduce(int64_t dim, Tensor index, Tensor src, c10::string_view reduce, *, "
        "bool include_self=True)",
    ),
    "scatter_reduce_": (
        "scatter_reduce_(int64_t dim, Tensor index, Tensor src, c10::string_view reduce, *, "
        "bool include_self=True)",
    ),
    "select": ("select(int64_t dim, SymInt index)",),
    "select_scatter": ("select_scatter(Tensor src, int64_t dim, SymInt index)",),
    "sgn": (),
    "sgn_": (),
    "sigmoid": (),
    "sigmoid_": (),
    "sign": (),
    "sign_": (),
    "signbit": (),
    "sin": (),
    "sin_": (),
    "sinc": (),
    "sinc_": (),
    "sinh": (),
    "sinh_": (),
    "slice_scatter": (
        "slice_scatter(Tensor src, int64_t dim=0, SymInt? start=None, SymInt? end=None, "
        "SymInt step=1)",
    ),
    "slogdet": (),
    "softmax": ("softmax(int64_t dim, ScalarType? dtype=None)",),
    "sort": (
        "sort(*, bool? stable, int64_t dim=-1, bool descending=False)",
        "sort(int64_t dim=-1, bool descending=False)",
    ),
    "sqrt": (),
    "sqrt_": (),
    "squeeze": ("squeeze()", "squeeze(int64_t dim)", "squeeze(IntArrayRef dim)"),
    "squeeze_": ("squeeze_()", "squeeze_(int64_t dim)", "squeeze_(IntArrayRef dim)"),
    "std": (
        "std(IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)",
        "std(IntArrayRef[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "std(bool unbiased=True)",
    ),
    "sub": ("sub(Tensor other, *, Scalar alpha=1)", "sub(Scalar alpha, Tensor other)|deprecated"),
    "sub_": (
        "sub_(Tensor other, *, Scalar alpha=1)",
        "sub_(Scalar alpha, Tensor other)|deprecated",
    ),
    "subtract": (
        "subtract(Tensor other, *, Scalar alpha=1)",
        "subtract(Scalar other, Scalar alpha=1)",
    ),
    "subtract_": (
        "subtract_(Tensor other, *, Scalar alpha=1)",
        "subtract_(Scalar other, Scalar alpha=1)",
    ),
    "sum": (
        "sum(*, ScalarType? dtype=None)",
        "sum(IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)",
    ),
    "sum_to_size": ("sum_to_size(SymIntArrayRef size)",),
    "swapaxes": ("swapaxes(int64_t axis0, int64_t axis1)",),
    "swapaxes_": ("swapaxes_(int64_t axis0, int64_t axis1)",),
    "swapdims": ("swapdims(int64_t dim0, int64_t dim1)",),
    "swapdims_": ("swapdims_(int64_t dim0, int64_t dim1)",),
    "t": (),
    "t_": (),
    "take": ("take(Tensor index)",),
    "tan": (),
    "tan_": (),
    "tanh": (),
    "tanh_": (),
    "tile": ("tile(SymIntArrayRef dims)",),
    "to": (
        "to(Device device=None, ScalarType dtype=None, bool non_blocking=False, bool copy=False, "
        "*, MemoryFormat? memory_format=None)",
        "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, "
        "MemoryFormat? memory_format=None)",
        "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, "
        "MemoryFormat? memory_format=None)",
    ),
    "topk": ("topk(SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True)",),
    "trace": (),
    "transpose": ("transpose(int64_t dim0, int64_t dim1)",),
    "transpose_": ("transpose_(int64_t dim0, int64_t dim1)",),
    "tril": ("tril(SymInt diagonal=0)",),
    "tril_": ("tril_(SymInt diagonal=0)",),
    "triu": ("triu(SymInt diagonal=0)",),
    "triu_": ("triu_(SymInt diagonal=0)",),
    "true_divide": ("true_divide(Tensor other)", "true_divide(Scalar other)"),
    "true_divide_": ("true_divide_(Tensor other)", "true_divide_(Scalar other)"),
    "trunc": (),
    "trunc_": (),
    "unbind": ("unbind(int64_t dim=0)",),
    "unfold": ("unfold(int64_t dimension, int64_t size, int64_t step)",),
    "uniform_": ("uniform_(double from=0, double to=1, *, Generator? generator=None)",),
    "unsqueeze": ("unsqueeze(int64_t dim)",),
    "unsqueeze_": ("unsqueeze_(int64_t dim)",),
    "var": (
        "var(IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)",
        "var(IntArrayRef[1]? dim=None, *, Scalar? correction=None, bool keepdim=False)",
        "var(bool unbiased=True)",
    ),
    "vdot": ("vdot(Tensor other)",),
    "view": ("view(ScalarType dtype)", "view(SymIntArrayRef size)"),
    "where": ("where(Tensor condition, Tensor other)", "where(Tensor condition, Scalar other)"),
    "zero_": (),
}

FUNCTIONS = {
    "_dirichlet_grad": ("_dirichlet_grad(Tensor x, Tensor alpha, Tensor total)",),
    "_sample_dirichlet": ("_sample_dirichlet(Tensor input, Generator? generator=None)",),
    "_standard_gamma": ("_standard_gamma(Tensor input, Generator? generator=None)",),
    "_standard_gamma_grad": ("_standard_gamma_grad(Tensor input, Tensor output)",),
    "abs": ("abs(Tensor input, *, Tensor out=None)",),
    "absolute": ("absolute(Tensor input, *, Tensor out=None)",),
    "acos": ("acos(Tensor input, *, Tensor out=None)",),
    "acos_": ("acos_(Tensor input)",),
    "acosh": ("acosh(Tensor input, *, Tensor out=None)",),
    "acosh_": ("acosh_(Tensor input)",),
    "add": (
        "add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
        "add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated",
    ),
    "addbmm": (
        "addbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor out=None)",
        "addbmm(Scalar beta, Tensor input, Scalar alpha, Tensor batch1, Tensor batch2, *, "
        "Tensor out=None)|deprecated",
        "addbmm(Scalar beta, Tensor input, Tensor batch1, Tensor batch2, *, "
        "Tensor out=None)|deprecated",
    ),
    "addcdiv": (
        "addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor out=None)",
        "addcdiv(Tensor input, Scalar value, Tensor tensor1, Tensor tensor2, *, "
        "Tensor out=None)|deprecated",
    ),
    "addcmul": (
        "addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor out=None)",
        "addcmul(Tensor input, Scalar value, Tensor tensor1, Tensor tensor2, *, "
        "Tensor out=None)|deprecated",
    ),
    "addmm": (
        "addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor out=None)",
        "addmm(Tensor input, Tensor mat1, Tensor mat2, ScalarType out_dtype, *, Scalar beta=1, "
        "Scalar alpha=1, Tensor out=None)",
        "addmm(Scalar beta, Tensor input, Scalar alpha, Tensor mat1, Tensor mat2, *, "
        "Tensor out=None)|deprecated",
        "addmm(Scalar beta, Tensor input, Tensor mat1, Tensor mat2, *, Tensor out=None)|deprecated",
    ),
    "addmv": (
        "addmv(Tensor input, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor out=None)",
        "addmv(Scalar beta, Tensor input, Scalar alpha, Tensor mat, Tensor vec, *, "
        "Tensor out=None)|deprecated",
        "addmv(Scalar beta, Tensor input, Tensor mat, Tensor vec, *, Tensor out=None)|deprecated",
    ),
    "addr": (
        "addr(Tensor input, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor out=None)",
        "addr(Scalar beta, Tensor input, Scalar alpha, Tensor vec1, Tensor vec2, *, "
        "Tensor out=None)|deprecated",
        "addr(Scalar beta, Tensor input, Tensor vec1, Tensor vec2, *, Tensor out=None)|deprecated",
    ),
    "all": (
        "all(Tensor input, *, Tensor out=None)",
        "all(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, Tensor out=None)",
        "all(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)",
    ),
    "amax": (
        "amax(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)",
    ),
    "amin": (
        "amin(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)",
    ),
    "aminmax": (
        "aminmax(Tensor input, *, int64_t? dim=None, bool keepdim=False, TensorList[2] out=None)",
    ),
    "angle": ("angle(Tensor input, *, Tensor out=None)",),
    "any": (
        "any(Tensor input, *, Tensor out=None)",
        "any(Tensor input, IntArrayRef? dim=None, bool keepdim=False, *, Tensor out=None)",
        "any(Tensor input, int64_t dim, bool keepdim=False, *, Tensor out=None)",
    ),
    "arange": (
        "arange(Scalar end, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "arange(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "arange(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "arccos": ("arccos(Tensor input, *, Tensor out=None)",),
    "arccos_": ("arccos_(Tensor input)",),
    "arccosh": ("arccosh(Tensor input, *, Tensor out=None)",),
    "arccosh_": ("arccosh_(Tensor input)",),
    "arcsin": ("arcsin(Tensor input, *, Tensor out=None)",),
    "arcsin_": ("arcsin_(Tensor input)",),
    "arcsinh": ("arcsinh(Tensor input, *, Tensor out=None)",),
    "arcsinh_": ("arcsinh_(Tensor input)",),
    "arctan": ("arctan(Tensor input, *, Tensor out=None)",),
    "arctan2": ("arctan2(Tensor input, Tensor other, *, Tensor out=None)",),
    "arctan_": ("arctan_(Tensor input)",),
    "arctanh": ("arctanh(Tensor input, *, Tensor out=None)",),
    "arctanh_": ("arctanh_(Tensor input)",),
    "argmax": ("argmax(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)",),
    "argmin": ("argmin(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)",),
    "argsort": (
        "argsort(Tensor input, *, bool stable, int64_t dim=-1, bool descending=False, "
        "Tensor out=None)",
        "argsort(Tensor input, int64_t dim=-1, bool descending=False)",
    ),
    "argwhere": ("argwhere(Tensor input)",),
    "as_strided": (
        "as_strided(Tensor input, SymIntArrayRef size, SymIntArrayRef stride, "
        "SymInt? storage_offset=None)",
    ),
    "as_strided_scatter": (
        "as_strided_scatter(Tensor input, Tensor src, SymIntArrayRef size, SymIntArrayRef stride, "
        "SymInt? storage_offset=None)",
    ),
    "as_tensor": ("as_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None)",),
    "asin": ("asin(Tensor input, *, Tensor out=None)",),
    "asin_": ("asin_(Tensor input)",),
    "asinh": ("asinh(Tensor input, *, Tensor out=None)",),
    "asinh_": ("asinh_(Tensor input)",),
    "atan": ("atan(Tensor input, *, Tensor out=None)",),
    "atan2": ("atan2(Tensor input, Tensor other, *, Tensor out=None)",),
    "atan_": ("atan_(Tensor input)",),
    "atanh": ("atanh(Tensor input, *, Tensor out=None)",),
    "atanh_": ("atanh_(Tensor input)",),
    "baddbmm": (
        "baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, "
        "Tensor out=None)",
        "baddbmm(Tensor input, Tensor batch1, Tensor batch2, ScalarType out_dtype, *, "
        "Scalar beta=1, Scalar alpha=1, Tensor out=None)",
        "baddbmm(Scalar beta, Tensor input, Scalar alpha, Tensor batch1, Tensor batch2, *, "
        "Tensor out=None)|deprecated",
        "baddbmm(Scalar beta, Tensor input, Tensor batch1, Tensor batch2, *, "
        "Tensor out=None)|deprecated",
    ),
    "batch_norm": (
        "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, "
        "Tensor? running_var, bool training, double momentum, double eps, bool cudnn_enabled)",
    ),
    "binary_cross_entropy_with_logits": (
        "binary_cross_entropy_with_logits(Tensor input, Tensor target, Tensor? weight=None, "
        "Tensor? pos_weight=None, int64_t reduction=at::Reduction::Mean)",
    ),
    "bincount": ("bincount(Tensor input, Tensor? weights=None, SymInt minlength=0)",),
    "binomial": ("binomial(Tensor count, Tensor prob, Generator? generator=None)",),
    "bitwise_and": (
        "bitwise_and(Tensor input, Tensor other, *, Tensor out=None)",
        "bitwise_and(Scalar self, Tensor other)",
        "bitwise_and(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "bitwise_left_shift": (
        "bitwise_left_shift(Tensor input, Tensor other, *, Tensor out=None)",
        "bitwise_left_shift(Scalar self, Tensor other)",
        "bitwise_left_shift(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "bitwise_not": ("bitwise_not(Tensor input, *, Tensor out=None)",),
    "bitwise_or": (
        "bitwise_or(Tensor input, Tensor other, *, Tensor out=None)",
        "bitwise_or(Scalar self, Tensor other)",
        "bitwise_or(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "bitwise_right_shift": (
        "bitwise_right_shift(Tensor input, Tensor other, *, Tensor out=None)",
        "bitwise_right_shift(Scalar self, Tensor other)",
        "bitwise_right_shift(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "bitwise_xor": (
        "bitwise_xor(Tensor input, Tensor other, *, Tensor out=None)",
        "bitwise_xor(Scalar self, Tensor other)",
        "bitwise_xor(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "bmm": (
        "bmm(Tensor input, Tensor mat2, *, Tensor out=None)",
        "bmm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)",
    ),
    "cat": ("cat(TensorList tensors, int64_t dim=0, *, Tensor out=None)",),
    "ceil": ("ceil(Tensor input, *, Tensor out=None)",),
    "cholesky_inverse": ("cholesky_inverse(Tensor input, bool upper=False, *, Tensor out=None)",),
    "cholesky_solve": (
        "cholesky_solve(Tensor input, Tensor input2, bool upper=False, *, Tensor out=None)",
    ),
    "chunk": ("chunk(Tensor input, int64_t chunks, int64_t dim=0)",),
    "clamp": (
        "clamp(Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor out=None)",
        "clamp(Tensor input, Scalar? min=None, Scalar? max=None, *, Tensor out=None)",
    ),
    "clamp_max": (
        "clamp_max(Tensor input, Tensor max, *, Tensor out=None)",
        "clamp_max(Tensor input, Scalar max, *, Tensor out=None)",
    ),
    "clamp_min": (
        "clamp_min(Tensor input, Tensor min, *, Tensor out=None)",
        "clamp_min(Tensor input, Scalar min, *, Tensor out=None)",
    ),
    "clip": (
        "clip(Tensor input, Tensor? min=None, Tensor? max=None, *, Tensor out=None)",
        "clip(Tensor input, Scalar? min=None, Scalar? max=None, *, Tensor out=None)",
    ),
    "clone": ("clone(Tensor input, *, MemoryFormat? memory_format=None)",),
    "complex": ("complex(Tensor real, Tensor imag, *, Tensor out=None)",),
    "concat": ("concat(TensorList tensors, int64_t dim=0, *, Tensor out=None)",),
    "conj": ("conj(Tensor input)",),
    "conj_physical": ("conj_physical(Tensor input, *, Tensor out=None)",),
    "conj_physical_": ("conj_physical_(Tensor input)",),
    "constant_pad_nd": ("constant_pad_nd(Tensor input, SymIntArrayRef pad, Scalar value=0)",),
    "copysign": (
        "copysign(Tensor input, Tensor other, *, Tensor out=None)",
        "copysign(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "cos": ("cos(Tensor input, *, Tensor out=None)",),
    "cosh": ("cosh(Tensor input, *, Tensor out=None)",),
    "cosh_": ("cosh_(Tensor input)",),
    "cummax": ("cummax(Tensor input, int64_t dim, *, TensorList[2] out=None)",),
    "cummin": ("cummin(Tensor input, int64_t dim, *, TensorList[2] out=None)",),
    "cumprod": ("cumprod(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)",),
    "cumsum": ("cumsum(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)",),
    "deg2rad": ("deg2rad(Tensor input, *, Tensor out=None)",),
    "deg2rad_": ("deg2rad_(Tensor input)",),
    "det": ("det(Tensor input)",),
    "diag": ("diag(Tensor input, int64_t diagonal=0, *, Tensor out=None)",),
    "diag_embed": ("diag_embed(Tensor input, int64_t offset=0, int64_t dim1=-2, int64_t dim2=-1)",),
    "diagonal": ("diagonal(Tensor input, int64_t offset=0, int64_t dim1=0, int64_t dim2=1)",),
    "diagonal_scatter": (
        "diagonal_scatter(Tensor input, Tensor src, int64_t offset=0, int64_t dim1=0, "
        "int64_t dim2=1)",
    ),
    "digamma": ("digamma(Tensor input, *, Tensor out=None)",),
    "dist": ("dist(Tensor input, Tensor other, Scalar p=2)",),
    "div": (
        "div(Tensor input, Tensor other, *, Tensor out=None)",
        "div(Tensor input, Tensor other, *, c10::string_view? rounding_mode, Tensor out=None)",
        "div(Tensor input, Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "divide": (
        "divide(Tensor input, Tensor other, *, Tensor out=None)",
        "divide(Tensor input, Tensor other, *, c10::string_view? rounding_mode, Tensor out=None)",
        "divide(Tensor input, Scalar other)",
        "divide(Tensor input, Scalar other, *, c10::string_view? rounding_mode)",
    ),
    "dot": ("dot(Tensor input, Tensor tensor, *, Tensor out=None)",),
    "embedding": (
        "embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, "
        "bool scale_grad_by_freq=False, bool sparse=False)",
    ),
    "empty": (
        "empty(SymIntArrayRef size, *, MemoryFormat? memory_format=None, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "empty_like": (
        "empty_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "empty_strided": (
        "empty_strided(SymIntArrayRef size, SymIntArrayRef stride, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "eq": (
        "eq(Tensor input, Tensor other, *, Tensor out=None)",
        "eq(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "erf": ("erf(Tensor input, *, Tensor out=None)",),
    "erfc": ("erfc(Tensor input, *, Tensor out=None)",),
    "erfinv": ("erfinv(Tensor input, *, Tensor out=None)",),
    "exp": ("exp(Tensor input, *, Tensor out=None)",),
    "exp2": ("exp2(Tensor input, *, Tensor out=None)",),
    "exp2_": ("exp2_(Tensor input)",),
    "expm1": ("expm1(Tensor input, *, Tensor out=None)",),
    "eye": (
        "eye(SymInt n, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "eye(SymInt n, SymInt m, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
    ),
    "fill": ("fill(Tensor input, Tensor value)", "fill(Tensor input, Scalar value)"),
    "flatten": ("flatten(Tensor input, int64_t start_dim=0, int64_t end_dim=-1)",),
    "flip": ("flip(Tensor input, IntArrayRef dims)",),
    "floor": ("floor(Tensor input, *, Tensor out=None)",),
    "floor_divide": (
        "floor_divide(Tensor input, Tensor other, *, Tensor out=None)",
        "floor_divide(Tensor input, Scalar other)",
    ),
    "fmax": ("fmax(Tensor input, Tensor other, *, Tensor out=None)",),
    "fmin": ("fmin(Tensor input, Tensor other, *, Tensor out=None)",),
    "fmod": (
        "fmod(Tensor input, Tensor other, *, Tensor out=None)",
        "fmod(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "frac": ("frac(Tensor input, *, Tensor out=None)",),
    "frexp": ("frexp(Tensor input, *, TensorList[2] out=None)",),
    "full": (
        "full(SymIntArrayRef size, Scalar fill_value, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "full_like": (
        "full_like(Tensor input, Scalar fill_value, *, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "gather": (
        "gather(Tensor input, int64_t dim, Tensor index, *, bool sparse_grad=False, "
        "Tensor out=None)",
    ),
    "gcd": ("gcd(Tensor input, Tensor other, *, Tensor out=None)",),
    "ge": (
        "ge(Tensor input, Tensor other, *, Tensor out=None)",
        "ge(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "geqrf": ("geqrf(Tensor input, *, TensorList[2] out=None)",),
    "greater": (
        "greater(Tensor input, Tensor other, *, Tensor out=None)",
        "greater(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "greater_equal": (
        "greater_equal(Tensor input, Tensor other, *, Tensor out=None)",
        "greater_equal(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "group_norm": (
        "group_norm(Tensor input, int64_t num_groups, Tensor? weight=None, Tensor? bias=None, "
        "double eps=1e-05, bool cudnn_enabled=True)",
    ),
    "gt": (
        "gt(Tensor input, Tensor other, *, Tensor out=None)",
        "gt(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "heaviside": ("heaviside(Tensor input, Tensor values, *, Tensor out=None)",),
    "hypot": ("hypot(Tensor input, Tensor other, *, Tensor out=None)",),
    "i0": ("i0(Tensor input, *, Tensor out=None)",),
    "i0_": ("i0_(Tensor input)",),
    "igamma": ("igamma(Tensor input, Tensor other, *, Tensor out=None)",),
    "igammac": ("igammac(Tensor input, Tensor other, *, Tensor out=None)",),
    "index_add": (
        "index_add(Tensor input, int64_t dim, Tensor index, Tensor source, *, Scalar alpha=1, "
        "Tensor out=None)",
    ),
    "index_copy": (
        "index_copy(Tensor input, int64_t dim, Tensor index, Tensor source, *, Tensor out=None)",
    ),
    "index_fill": (
        "index_fill(Tensor input, int64_t dim, Tensor index, Tensor value)",
        "index_fill(Tensor input, int64_t dim, Tensor index, Scalar value)",
    ),
    "index_put": (
        "index_put(Tensor input, c10::List<::std::optional<Tensor>> indices, Tensor values, "
        "bool accumulate=False)",
    ),
    "index_reduce": (
        "index_reduce(Tensor input, int64_t dim, Tensor index, Tensor source, "
        "c10::string_view reduce, *, bool include_self=True, Tensor out=None)",
    ),
    "index_select": ("index_select(Tensor input, int64_t dim, Tensor index, *, Tensor out=None)",),
    "isclose": (
        "isclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, "
        "bool equal_nan=False)",
    ),
    "isfinite": ("isfinite(Tensor input)",),
    "isin": (
        "isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, "
        "bool invert=False, Tensor out=None)",
        "isin(Scalar element, Tensor test_elements, *, bool assume_unique=False, "
        "bool invert=False, Tensor out=None)",
        "isin(Tensor elements, Scalar test_element, *, bool assume_unique=False, "
        "bool invert=False, Tensor out=None)",
    ),
    "isinf": ("isinf(Tensor input)",),
    "isnan": ("isnan(Tensor input)",),
    "isneginf": ("isneginf(Tensor input, *, Tensor out=None)",),
    "isposinf": ("isposinf(Tensor input, *, Tensor out=None)",),
    "kthvalue": (
        "kthvalue(Tensor input, SymInt k, int64_t dim=-1, bool keepdim=False, *, "
        "TensorList[2] out=None)",
    ),
    "layer_norm": (
        "layer_norm(Tensor input, SymIntArrayRef normalized_shape, Tensor? weight=None, "
        "Tensor? bias=None, double eps=1e-05, bool cudnn_enable=True)",
    ),
    "lcm": ("lcm(Tensor input, Tensor other, *, Tensor out=None)",),
    "ldexp": ("ldexp(Tensor input, Tensor other, *, Tensor out=None)",),
    "le": (
        "le(Tensor input, Tensor other, *, Tensor out=None)",
        "le(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "lerp": (
        "lerp(Tensor input, Tensor end, Tensor weight, *, Tensor out=None)",
        "lerp(Tensor input, Tensor end, Scalar weight, *, Tensor out=None)",
    ),
    "less": (
        "less(Tensor input, Tensor other, *, Tensor out=None)",
        "less(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "less_equal": (
        "less_equal(Tensor input, Tensor other, *, Tensor out=None)",
        "less_equal(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "lgamma": ("lgamma(Tensor input, *, Tensor out=None)",),
    "linspace": (
        "linspace(Tensor start, Tensor end, int64_t steps, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "linspace(Scalar start, Tensor end, int64_t steps, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "linspace(Tensor start, Scalar end, int64_t steps, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "linspace(Scalar start, Scalar end, int64_t steps, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "log": ("log(Tensor input, *, Tensor out=None)",),
    "log10": ("log10(Tensor input, *, Tensor out=None)",),
    "log10_": ("log10_(Tensor input)",),
    "log1p": ("log1p(Tensor input, *, Tensor out=None)",),
    "log2": ("log2(Tensor input, *, Tensor out=None)",),
    "log2_": ("log2_(Tensor input)",),
    "log_softmax": (
        "log_softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)",
    ),
    "logaddexp": ("logaddexp(Tensor input, Tensor other, *, Tensor out=None)",),
    "logaddexp2": ("logaddexp2(Tensor input, Tensor other, *, Tensor out=None)",),
    "logcumsumexp": ("logcumsumexp(Tensor input, int64_t dim, *, Tensor out=None)",),
    "logical_and": ("logical_and(Tensor input, Tensor other, *, Tensor out=None)",),
    "logical_not": ("logical_not(Tensor input, *, Tensor out=None)",),
    "logical_or": ("logical_or(Tensor input, Tensor other, *, Tensor out=None)",),
    "logical_xor": ("logical_xor(Tensor input, Tensor other, *, Tensor out=None)",),
    "logit": ("logit(Tensor input, double? eps=None, *, Tensor out=None)",),
    "logit_": ("logit_(Tensor input, double? eps=None)",),
    "logspace": (
        "logspace(Tensor start, Tensor end, int64_t steps, double base=10.0, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "logspace(Scalar start, Tensor end, int64_t steps, double base=10.0, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "logspace(Tensor start, Scalar end, int64_t steps, double base=10.0, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "logspace(Scalar start, Scalar end, int64_t steps, double base=10.0, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "logsumexp": (
        "logsumexp(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)",
    ),
    "lt": (
        "lt(Tensor input, Tensor other, *, Tensor out=None)",
        "lt(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "lu_unpack": (
        "lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, "
        "bool unpack_pivots=True, *, TensorList[3] out=None)",
    ),
    "masked_fill": (
        "masked_fill(Tensor input, Tensor mask, Tensor value)",
        "masked_fill(Tensor input, Tensor mask, Scalar value)",
    ),
    "masked_scatter": ("masked_scatter(Tensor input, Tensor mask, Tensor source)",),
    "masked_select": ("masked_select(Tensor input, Tensor mask, *, Tensor out=None)",),
    "matrix_exp": ("matrix_exp(Tensor input)",),
    "max": (
        "max(Tensor input, *, Tensor out=None)",
        "max(Tensor input, Tensor other, *, Tensor out=None)",
        "max(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)",
    ),
    "maximum": ("maximum(Tensor input, Tensor other, *, Tensor out=None)",),
    "mean": (
        "mean(Tensor input, *, ScalarType? dtype=None, Tensor out=None)",
        "mean(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
        "Tensor out=None)",
    ),
    "median": (
        "median(Tensor input)",
        "median(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)",
    ),
    "min": (
        "min(Tensor input, *, Tensor out=None)",
        "min(Tensor input, Tensor other, *, Tensor out=None)",
        "min(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)",
    ),
    "minimum": ("minimum(Tensor input, Tensor other, *, Tensor out=None)",),
    "matmul": ("matmul(Tensor input, Tensor other, *, Tensor out=None)",),
    "mm": (
        "mm(Tensor input, Tensor mat2, *, Tensor out=None)",
        "mm(Tensor input, Tensor mat2, ScalarType out_dtype, *, Tensor out=None)",
    ),
    "mode": ("mode(Tensor input, int64_t dim=-1, bool keepdim=False, *, TensorList[2] out=None)",),
    "mul": ("mul(Tensor input, Tensor other, *, Tensor out=None)",),
    "multiply": (
        "multiply(Tensor input, Tensor other, *, Tensor out=None)",
        "multiply(Tensor input, Scalar other)",
    ),
    "mv": ("mv(Tensor input, Tensor vec, *, Tensor out=None)",),
    "nan_to_num": (
        "nan_to_num(Tensor input, double? nan=None, double? posinf=None, double? neginf=None, *, "
        "Tensor out=None)",
    ),
    "nanmedian": (
        "nanmedian(Tensor input)",
        "nanmedian(Tensor input, int64_t dim, bool keepdim=False, *, TensorList[2] out=None)",
    ),
    "nansum": (
        "nansum(Tensor input, IntArrayRef[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None, Tensor out=None)",
    ),
    "narrow": (
        "narrow(Tensor input, int64_t dim, Tensor start, SymInt length)",
        "narrow(Tensor input, int64_t dim, SymInt start, SymInt length)",
    ),
    "narrow_copy": (
        "narrow_copy(Tensor input, int64_t dim, SymInt start, SymInt length, *, Tensor out=None)",
    ),
    "ne": (
        "ne(Tensor input, Tensor other, *, Tensor out=None)",
        "ne(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "neg": ("neg(Tensor input, *, Tensor out=None)",),
    "negative": ("negative(Tensor input, *, Tensor out=None)",),
    "nextafter": ("nextafter(Tensor input, Tensor other, *, Tensor out=None)",),
    "not_equal": (
        "not_equal(Tensor input, Tensor other, *, Tensor out=None)",
        "not_equal(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "ones": (
        "ones(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "ones_like": (
        "ones_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "orgqr": ("orgqr(Tensor input, Tensor input2, *, Tensor out=None)",),
    "ormqr": (
        "ormqr(Tensor input, Tensor input2, Tensor input3, bool left=True, bool transpose=False, "
        "*, Tensor out=None)",
    ),
    "permute": ("permute(Tensor input, IntArrayRef dims)",),
    "poisson": ("poisson(Tensor input, Generator? generator=None)",),
    "polar": ("polar(Tensor abs, Tensor angle, *, Tensor out=None)",),
    "pow": (
        "pow(Tensor input, Tensor exponent, *, Tensor out=None)",
        "pow(Scalar self, Tensor exponent, *, Tensor out=None)",
        "pow(Tensor input, Scalar exponent, *, Tensor out=None)",
    ),
    "prod": (
        "prod(Tensor input, *, ScalarType? dtype=None)",
        "prod(Tensor input, int64_t dim, bool keepdim=False, *, ScalarType? dtype=None, "
        "Tensor out=None)",
    ),
    "put": ("put(Tensor input, Tensor index, Tensor source, bool accumulate=False)",),
    "rad2deg": ("rad2deg(Tensor input, *, Tensor out=None)",),
    "rad2deg_": ("rad2deg_(Tensor input)",),
    "rand": (
        "rand(SymIntArrayRef size, *, Generator? generator, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "rand(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "rand_like": (
        "rand_like(Tensor input, *, Generator? generator, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "rand_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "randint": (
        "randint(SymInt high, SymIntArrayRef size, *, Generator? generator, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randint(SymInt high, SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randint(SymInt low, SymInt high, SymIntArrayRef size, *, Generator? generator, "
        "Tensor out=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
        "bool? pin_memory=False, bool? requires_grad=False)",
        "randint(SymInt low, SymInt high, SymIntArrayRef size, *, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "randint_like": (
        "randint_like(Tensor input, SymInt low, SymInt high, *, Generator? generator, "
        "MemoryFormat? memory_format=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "randint_like(Tensor input, SymInt low, SymInt high, *, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randint_like(Tensor input, Tensor high, *, Generator? generator, "
        "MemoryFormat? memory_format=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "randint_like(Tensor input, Tensor high, *, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randint_like(Tensor input, SymInt high, *, Generator? generator, "
        "MemoryFormat? memory_format=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
        "randint_like(Tensor input, SymInt high, *, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "randn": (
        "randn(SymIntArrayRef size, *, Generator? generator, Tensor out=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randn(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "randn_like": (
        "randn_like(Tensor input, *, Generator? generator, MemoryFormat? memory_format=None, "
        "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randn_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "randperm": (
        "randperm(SymInt n, *, Generator? generator, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
        "randperm(SymInt n, *, Tensor out=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=False, bool? requires_grad=False)",
    ),
    "reciprocal": ("reciprocal(Tensor input, *, Tensor out=None)",),
    "relu": ("relu(Tensor input)",),
    "remainder": (
        "remainder(Tensor input, Tensor other, *, Tensor out=None)",
        "remainder(Scalar self, Tensor other)",
        "remainder(Tensor input, Scalar other, *, Tensor out=None)",
    ),
    "renorm": ("renorm(Tensor input, Scalar p, int64_t dim, Scalar maxnorm, *, Tensor out=None)",),
    "repeat_interleave": (
        "repeat_interleave(Tensor input, Tensor repeats, int64_t? dim=None, *, "
        "SymInt? output_size=None)",
        "repeat_interleave(Tensor repeats, *, SymInt? output_size=None)",
        "repeat_interleave(Tensor input, SymInt repeats, int64_t? dim=None, *, "
        "SymInt? output_size=None)",
    ),
    "reshape": ("reshape(Tensor input, SymIntArrayRef shape)",),
    "roll": ("roll(Tensor input, SymIntArrayRef[1] shifts, IntArrayRef[1] dims=None)",),
    "rot90": ("rot90(Tensor input, int64_t k=1, IntArrayRef dims={0,1})",),
    "round": (
        "round(Tensor input, *, Tensor out=None)",
        "round(Tensor input, *, int64_t decimals, Tensor out=None)",
    ),
    "rsqrt": ("rsqrt(Tensor input, *, Tensor out=None)",),
    "rsub": (
        "rsub(Tensor input, Tensor other, *, Scalar alpha=1)",
        "rsub(Tensor input, Scalar other, Scalar alpha=1)",
    ),
    "scatter": (
        "scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)",
        "scatter(Tensor input, int64_t dim, Tensor index, Tensor src, *, c10::string_view reduce, "
        "Tensor out=None)",
        "scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, Tensor out=None)",
        "scatter(Tensor input, int64_t dim, Tensor index, Scalar value, *, "
        "c10::string_view reduce, Tensor out=None)",
    ),
    "scatter_add": (
        "scatter_add(Tensor input, int64_t dim, Tensor index, Tensor src, *, Tensor out=None)",
    ),
    "scatter_reduce": (
        "scatter_reduce(Tensor input, int64_t dim, Tensor index, Tensor src, "
        "c10::string_view reduce, *, bool include_self=True, Tensor out=None)",
    ),
    "searchsorted": (
        "searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False, "
        "bool right=False, c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)",
        "searchsorted(Tensor sorted_sequence, Scalar self, *, bool out_int32=False, "
        "bool right=False, c10::string_view? side=None, Tensor? sorter=None, Tensor out=None)",
    ),
    "select": ("select(Tensor input, int64_t dim, SymInt index)",),
    "select_scatter": ("select_scatter(Tensor input, Tensor src, int64_t dim, SymInt index)",),
    "sgn": ("sgn(Tensor input, *, Tensor out=None)",),
    "sigmoid": ("sigmoid(Tensor input, *, Tensor out=None)",),
    "sign": ("sign(Tensor input, *, Tensor out=None)",),
    "signbit": ("signbit(Tensor input, *, Tensor out=None)",),
    "sin": ("sin(Tensor input, *, Tensor out=None)",),
    "sinc": ("sinc(Tensor input, *, Tensor out=None)",),
    "sinc_": ("sinc_(Tensor input)",),
    "sinh": ("sinh(Tensor input, *, Tensor out=None)",),
    "sinh_": ("sinh_(Tensor input)",),
    "slice_scatter": (
        "slice_scatter(Tensor input, Tensor src, int64_t dim=0, SymInt? start=None, "
        "SymInt? end=None, SymInt step=1, *, Tensor out=None)",
    ),
    "slogdet": ("slogdet(Tensor input, *, TensorList[2] out=None)",),
    "softmax": ("softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)",),
    "sort": (
        "sort(Tensor input, *, bool? stable, int64_t dim=-1, bool descending=False, "
        "TensorList[2] out=None)",
        "sort(Tensor input, int64_t dim=-1, bool descending=False, *, TensorList[2] out=None)",
    ),
    "sqrt": ("sqrt(Tensor input, *, Tensor out=None)",),
    "squeeze": (
        "squeeze(Tensor input)",
        "squeeze(Tensor input, int64_t dim)",
        "squeeze(Tensor input, IntArrayRef dim)",
    ),
    "stack": ("stack(TensorList tensors, int64_t dim=0, *, Tensor out=None)",),
    "std": (
        "std(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False, *, "
        "Tensor out=None)",
        "std(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, "
        "bool keepdim=False, Tensor out=None)",
        "std(Tensor input, bool unbiased=True)",
    ),
    "std_mean": (
        "std_mean(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)",
        "std_mean(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, "
        "bool keepdim=False)",
        "std_mean(Tensor input, bool unbiased=True)",
    ),
    "sub": (
        "sub(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
        "sub(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated",
    ),
    "subtract": (
        "subtract(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
        "subtract(Tensor input, Scalar other, Scalar alpha=1)",
    ),
    "sum": (
        "sum(Tensor input, *, ScalarType? dtype=None)",
        "sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, "
        "Tensor out=None)",
    ),
    "swapaxes": ("swapaxes(Tensor input, int64_t axis0, int64_t axis1)",),
    "swapdims": ("swapdims(Tensor input, int64_t dim0, int64_t dim1)",),
    "t": ("t(Tensor input)",),
    "take": ("take(Tensor input, Tensor index, *, Tensor out=None)",),
    "tan": ("tan(Tensor input, *, Tensor out=None)",),
    "tan_": ("tan_(Tensor input)",),
    "tanh": ("tanh(Tensor input, *, Tensor out=None)",),
    "tensor": (
        "tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, "
        "bool pin_memory=False, bool requires_grad=False)",
    ),
    "tile": ("tile(Tensor input, SymIntArrayRef dims)",),
    "topk": (
        "topk(Tensor input, SymInt k, int64_t dim=-1, bool largest=True, bool sorted=True, *, "
        "TensorList[2] out=None)",
    ),
    "trace": ("trace(Tensor input)",),
    "transpose": ("transpose(Tensor input, int64_t dim0, int64_t dim1)",),
    "tril": ("tril(Tensor input, SymInt diagonal=0, *, Tensor out=None)",),
    "tril_indices": (
        "tril_indices(int64_t row, int64_t col, int64_t offset=0, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "triu": ("triu(Tensor input, SymInt diagonal=0, *, Tensor out=None)",),
    "triu_indices": (
        "triu_indices(int64_t row, int64_t col, int64_t offset=0, *, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "true_divide": (
        "true_divide(Tensor input, Tensor other, *, Tensor out=None)",
        "true_divide(Tensor input, Scalar other)",
    ),
    "trunc": ("trunc(Tensor input, *, Tensor out=None)",),
    "unbind": ("unbind(Tensor input, int64_t dim=0)",),
    "unsqueeze": ("unsqueeze(Tensor input, int64_t dim)",),
    "var": (
        "var(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False, *, "
        "Tensor out=None)",
        "var(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, "
        "bool keepdim=False, Tensor out=None)",
        "var(Tensor input, bool unbiased=True)",
    ),
    "var_mean": (
        "var_mean(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False)",
        "var_mean(Tensor input, IntArrayRef[1]? dim=None, *, Scalar? correction=None, "
        "bool keepdim=False)",
        "var_mean(Tensor input, bool unbiased=True)",
    ),
    "vdot": ("vdot(Tensor input, Tensor other, *, Tensor out=None)",),
    "view_as_complex": ("view_as_complex(Tensor input)",),
    "view_as_real": ("view_as_real(Tensor input)",),
    "where": (
        "where(Tensor condition)",
        "where(Tensor condition, Tensor input, Tensor other, *, Tensor out=None)",
        "where(Tensor condition, Scalar self, Tensor other)",
        "where(Tensor condition, Tensor input, Scalar other)",
        "where(Tensor condition, Scalar self, Scalar other)",
    ),
    "zeros": (
        "zeros(SymIntArrayRef size, *, Tensor out=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
    "zeros_like": (
        "zeros_like(Tensor input, *, MemoryFormat? memory_format=None, ScalarType? dtype=None, "
        "Layout? layout=None, Device? device=None, bool? pin_memory=False, "
        "bool? requires_grad=False)",
    ),
}

CALLED = {
    "linalg_vector_norm": (
        "linalg_vector_norm(Tensor input, Scalar ord=2, IntArrayRef[1]? dim=None, "
        "bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)",
    ),
    "split": (
        "split(Tensor input, SymInt split_size, int64_t dim=0)",
        "split(Tensor input, SymIntArrayRef split_size, int64_t dim=0)",
    ),
    "split_with_sizes": (
        "split_with_sizes(Tensor input, SymIntArrayRef split_sizes, int64_t dim=0)",
    ),
}

"""
clone() 与 detach()：复制、共享与梯度 / clone() and detach(): copies, sharing and gradients
===========================================================================================

.. question:: clone() 和 detach() 给出的张量，在内存和梯度上有什么不同？ /
   How do the tensors from clone() and detach() differ in memory and in gradients?

.. container:: dt-zh

   参考文章《PyTorch中clone()、detach()及相关扩展详解》（编辑 jimmy，2025-01-12）；
   文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the article ":zh:`PyTorch中clone()、detach()及相关扩展详解`" (edited by jimmy,
   2025-01-12); every example is re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      ``clone()`` 和 ``detach()`` 都会给出一个“看起来一样”的张量，区别在于两件事：
      新张量是否占用自己的内存，以及它是否还连在计算图上。本页逐个运行原文的例子，
      每段输出都在构建时与 PyTorch 2.13 的真实输出核对。原文有几处输出或说法与
      PyTorch 2.13 不符，我们保留例子、记录真实输出，并用勘误框说明原因。

   .. tab-item:: English
      :sync: en

      ``clone()`` and ``detach()`` both hand back a tensor that looks the same as the
      original. They differ in two things: whether the new tensor owns its own memory, and
      whether it is still attached to the autograd graph. This page runs every example of the
      article; each printed output is checked at build time against what PyTorch 2.13 really
      prints. Where the article's output or claim does not hold in PyTorch 2.13, we keep the
      example, record the real output, and explain the difference in an erratum box.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **一个值，三个张量。** ``b = a.clone()`` 复制出一块新内存，但仍记录在计算图里；
#       ``c = a.detach()`` 与 ``a`` 共用同一块内存，却脱离了计算图。接着我们通过
#       ``a.data`` 把 ``a`` 原地乘以 3，再把 ``b`` 原地加 1：``c`` 跟着 ``a`` 变成 3，
#       而 ``b`` 只是在自己的副本上从 1 变成 2。
#
#    .. tab-item:: English
#       :sync: en
#
#       **One value, three tensors.** ``b = a.clone()`` copies the value into fresh memory
#       and stays recorded in the graph; ``c = a.detach()`` shares ``a``'s memory but leaves
#       the graph. We then triple ``a`` in place through ``a.data`` and add 1 to ``b`` in
#       place: ``c`` follows ``a`` to 3, while ``b`` goes from 1 to 2 on its own copy.

import textwrap
import warnings

import doctensor as torch
from doctensor.viz import draw_graph, draw_storage


def show(text):
    """Print a long message wrapped at 79 columns, so that the page stays narrow."""
    print(textwrap.fill(text, width=79, break_on_hyphens=False))


def show_warnings(caught):
    """Print each caught warning as ``Category: message``.

    torch appends the C++ file and line that raised the warning ("(Triggered internally
    at ...)"); that part depends on how torch was built, so we leave it out.
    """
    for w in caught:
        message = str(w.message).split(" (Triggered internally at")[0]
        show(f"{w.category.__name__}: {message}")


a = torch.tensor(1.0, requires_grad=True)
b = a.clone()  # new memory, still in the graph
c = a.detach()  # same memory as a, outside the graph
a.data *= 3
b += 1
print(a)
print(b)
print(c)

# %%
# .. expected-output::
#
#    tensor(3., requires_grad=True)
#    tensor(2., grad_fn=<AddBackward0>)
#    tensor(3.)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下面两张图由 ``doctensor.viz`` 在构建时根据这三个张量画出。第一张是存储：
#       ``a`` 和 ``c`` 读同一块存储 A（只有一个格子，值为 3），``b`` 独占存储 B（值为 2）。
#       ``b`` 的版本是 1（``b += 1``）；``a`` 和 ``c`` 的版本仍是 0，因为 ``a.data *= 3``
#       改的是 ``a.data`` 自己的版本计数器（见
#       :doc:`plot_4_data_vs_detach`）。第二张是 ``b`` 的计算图，箭头是梯度流动的方向：
#       ``AddBackward0`` → ``CloneBackward0`` → ``a`` 的 ``AccumulateGrad``。
#
#    .. tab-item:: English
#       :sync: en
#
#       The two pictures below are drawn at build time by ``doctensor.viz`` from these three
#       tensors. The first shows storage: ``a`` and ``c`` read the same storage A (a single
#       cell holding 3), ``b`` owns storage B (holding 2). ``b`` is at version 1
#       (``b += 1``); ``a`` and ``c`` are still at version 0, because ``a.data *= 3`` bumps
#       only the separate version counter of ``a.data`` (see :doc:`plot_4_data_vs_detach`).
#       The second is the graph of ``b``, with arrows in the direction gradients flow:
#       ``AddBackward0`` → ``CloneBackward0`` → ``AccumulateGrad`` of ``a``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("a", a), ("b = a.clone()", b), ("c = a.detach()", c))

# %%

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(b, params={"a": a}, name="b")

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       ``b`` 显示的是 ``AddBackward0`` 而不是克隆节点：原地的 ``b += 1`` 把 ``b``
#       的历史接到了加法节点上，克隆节点仍在它的下游。单独克隆一次就能看到克隆节点的名字。
#
#    .. tab-item:: English
#       :sync: en
#
#       ``b`` shows ``AddBackward0`` rather than the clone node: the in-place ``b += 1``
#       moved ``b``'s history onto an addition node, with the clone node behind it. A fresh
#       clone shows the clone node's own name.

print(a.clone())

# %%
# .. expected-output::
#
#    tensor(3., grad_fn=<CloneBackward0>)
#
# .. erratum:: 克隆节点的名字 / The clone node's name
#    :article: PyTorch中clone()、detach()及相关扩展详解 (jimmy)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文称克隆结果带有 ``grad_fn=<CloneBackward>``。这是旧版 PyTorch 的名字；
#          较新的版本给每个反向函数加上了重载序号，PyTorch 2.13 显示 ``CloneBackward0``。
#
#       .. tab-item:: English
#          :sync: en
#
#          The article says a clone carries ``grad_fn=<CloneBackward>``. That name comes from
#          an old PyTorch; newer releases add an overload number to every backward function,
#          and PyTorch 2.13 shows ``CloneBackward0``.
#
#    原文写道 / The article wrote::
#
#       grad_fn=<CloneBackward>
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor(3., grad_fn=<CloneBackward0>)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **id 不能说明是否共享内存。** 原文打印了两个 ``id(...)`` 的值。内存地址每次运行都不同，
#       真正有意义的是比较：``detach()`` 得到的是另一个 Python 对象（``id`` 不同），
#       但它的数据指针与原张量相同。原文建议“改一个、看另一个”，我们也照做。
#
#    .. tab-item:: English
#       :sync: en
#
#       **id tells nothing about shared memory.** The article printed two ``id(...)`` values.
#       Addresses change from run to run; what means something is the comparison: ``detach()``
#       returns another Python object (different ``id``), yet its data pointer is the
#       original's. The article suggests editing one tensor and watching the other; we do that
#       too.

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.detach()
print(id(a) == id(b))
print(a.data_ptr() == b.data_ptr())
b[0] = 5.0
print(a)

# %%
# .. expected-output::
#
#    False
#    True
#    tensor([5., 2.], requires_grad=True)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **梯度会穿过 clone() 流回源张量。** ``a_copy = a.clone()`` 是计算图中的一个中间结果：
#       经过它的梯度会累加到 ``a.grad`` 上，它自己的 ``.grad`` 则保持 ``None``。
#       第一次反向传播得到 :math:`2a = 2`；第二次来自 ``z``，其中 ``a ** 2`` 贡献 2，
#       经由克隆的 ``a_copy * 3`` 贡献 3，累加后 ``a.grad`` 为 2 + 2 + 3 = 7。
#       PyTorch 2.13 读取非叶子张量的 ``.grad`` 时还会发出一条警告，我们把它显式捕获并打印出来。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Gradients flow through clone() back to the source.** ``a_copy = a.clone()`` is an
#       intermediate result of the graph: gradient that passes through it is added to
#       ``a.grad``, while its own ``.grad`` stays ``None``. The first backward gives
#       :math:`2a = 2`; the second one comes from ``z``, where ``a ** 2`` adds 2 and
#       ``a_copy * 3`` adds 3 through the clone, so ``a.grad`` ends at 2 + 2 + 3 = 7.
#       PyTorch 2.13 also warns when the ``.grad`` of a non-leaf tensor is read; we catch that
#       warning explicitly and print it.

a = torch.tensor(1.0, requires_grad=True)
a_copy = a.clone()
y = a**2
z = a**2 + a_copy * 3
y.backward()
print(a.grad)
z.backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(a_copy.grad)
show_warnings(caught)
print(a.grad)

# %%
# .. expected-output::
#
#    tensor(2.)
#    None
#    UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being
#    accessed. Its .grad attribute won't be populated during autograd.backward(). If
#    you indeed want the .grad field to be populated for a non-leaf Tensor, use
#    .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by
#    mistake, make sure you access the leaf Tensor instead. See
#    github.com/pytorch/pytorch/pull/30531 for more information.
#    tensor(7.)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下图是 ``z`` 的计算图（``doctensor.viz.draw_graph`` 在构建时画出）。从 ``AddBackward0``
#       出发有两条路：``PowBackward0``（来自 ``a ** 2``）和 ``MulBackward0`` →
#       ``CloneBackward0``（来自 ``a_copy * 3``），两条路汇到同一个 ``AccumulateGrad``，
#       也就是叶子 ``a``。所以两部分梯度都加在 ``a.grad`` 上，而克隆节点只是中转，
#       ``a_copy`` 自己不存梯度。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below is the graph of ``z`` (drawn at build time by
#       ``doctensor.viz.draw_graph``). From ``AddBackward0`` two paths lead down:
#       ``PowBackward0`` (from ``a ** 2``) and ``MulBackward0`` → ``CloneBackward0`` (from
#       ``a_copy * 3``). Both end in the same ``AccumulateGrad``, the leaf ``a``, so both
#       contributions add up in ``a.grad``, while the clone node only passes gradient on and
#       ``a_copy`` keeps none.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(z, params={"a": a}, name="z", saved=False)

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **requires_grad 的去向。** 源张量需要梯度时，克隆结果也需要梯度，而 ``detach()`` 与
#       ``clone().detach()`` 的结果都不需要。下面用一个 ``torch.nn.Linear(2, 1)``
#       做一次前向和反向；``x.grad`` 就是线性层的权重。原文的权重数值对应随机种子 0，
#       所以我们先调用 ``torch.manual_seed(0)``，使结果可以逐位核对。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Where requires_grad goes.** When the source requires grad, so does its clone,
#       while ``detach()`` and ``clone().detach()`` both give tensors that do not. Below,
#       a ``torch.nn.Linear(2, 1)`` runs one forward and one backward pass; ``x.grad`` equals
#       the layer's weight. The article's weights are those drawn after seed 0, so we call
#       ``torch.manual_seed(0)`` first and the numbers can be checked digit for digit.

torch.manual_seed(0)

x = torch.tensor([1.0, 2.0], requires_grad=True)
x_clone = x.clone()
x_detached = x.detach()
x_clone_detached = x.clone().detach()

layer = torch.nn.Linear(2, 1)
out = layer(x)
out.backward()

print(x.grad)
print(x_clone.requires_grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(x_clone.grad)
show_warnings(caught)
print(x_detached.requires_grad)
print(x_clone_detached.requires_grad)

# %%
# .. expected-output::
#
#    tensor([-0.0053,  0.3793])
#    True
#    None
#    UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being
#    accessed. Its .grad attribute won't be populated during autograd.backward(). If
#    you indeed want the .grad field to be populated for a non-leaf Tensor, use
#    .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by
#    mistake, make sure you access the leaf Tensor instead. See
#    github.com/pytorch/pytorch/pull/30531 for more information.
#    False
#    False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **克隆一个不需要梯度的张量。** 源张量不需要梯度时，克隆结果也不需要；对克隆调用
#       ``requires_grad_()`` 后，它就成了一个新的叶子张量，梯度停在它身上，
#       不会回传给源张量。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Cloning a tensor that needs no grad.** If the source does not require grad, neither
#       does its clone. Calling ``requires_grad_()`` on the clone makes it a new leaf: the
#       gradient stops there and never reaches the source.

a = torch.tensor(1.0)
a_copy = a.clone()
a_copy.requires_grad_()
y = a_copy**2
y.backward()
print(a.grad)
print(a_copy.grad)

# %%
# .. expected-output::
#
#    None
#    tensor(2.)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **改变形状的原地操作。** 原文的总结说，``resize_``、``resize_as_``、``set_``、
#       ``transpose_`` 这类原地操作作用在 ``clone()`` 或 ``detach()`` 的结果上
#       “都会引发错误或者警告”。我们逐个试一试 ``resize_`` 和 ``transpose_``：
#
#    .. tab-item:: English
#       :sync: en
#
#       **In-place operations that change the shape.** The article's summary says that
#       in-place operations such as ``resize_``, ``resize_as_``, ``set_`` and ``transpose_``
#       "raise an error or a warning" on the result of both ``clone()`` and ``detach()``.
#       We try ``resize_`` and ``transpose_`` on each:

source = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def attempt(label, edit):
    """Run one in-place edit and print whether it went through."""
    try:
        edit()
        print(label, "-> ok")
    except RuntimeError as e:
        print(label, "->", f"{type(e).__name__}: {e}")


cloned = source.clone()
attempt("clone().resize_(6)", lambda: cloned.resize_(6))
attempt("clone().transpose_(0, 1)", lambda: cloned.transpose_(0, 1))
detached = source.detach()
attempt("detach().resize_(6)", lambda: detached.resize_(6))
detached_t = source.detach()
attempt("detach().transpose_(0, 1)", lambda: detached_t.transpose_(0, 1))
print(source.shape, cloned.shape, detached.shape, detached_t.shape)

# %%
# .. expected-output::
#
#    clone().resize_(6) -> RuntimeError: cannot resize variables that require grad
#    clone().transpose_(0, 1) -> ok
#    detach().resize_(6) -> ok
#    detach().transpose_(0, 1) -> ok
#    torch.Size([2, 3]) torch.Size([3, 2]) torch.Size([6]) torch.Size([3, 2])
#
# .. erratum:: 改形状的原地操作并不总会报错 / Shape-changing in-place ops do not always fail
#    :article: PyTorch中clone()、detach()及相关扩展详解 (jimmy)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          在 PyTorch 2.13 中，只有 ``resize_`` （以及 ``resize_as_``）会在克隆结果上报错，
#          原因是克隆结果需要梯度，而需要梯度的张量不允许改变大小。``transpose_`` 在克隆上照常执行。
#          ``detach()`` 的结果不需要梯度，这些操作都能执行，而且只改变它自己的形状：
#          源张量仍是 ``[2, 3]``。``resize_ / resize_as_ / set_ / transpose_`` 这份清单出自旧版
#          PyTorch 文档中 ``detach()`` 的一段说明，那段说明称这类修改会报错；
#          PyTorch 2.13 的文档已经没有这段说明，实际行为如上。
#
#       .. tab-item:: English
#          :sync: en
#
#          In PyTorch 2.13 only ``resize_`` (and ``resize_as_``) fails on the clone, because
#          the clone requires grad and a tensor that requires grad may not be resized.
#          ``transpose_`` runs on the clone as usual. The result of ``detach()`` does not
#          require grad, so all of these run on it, and they change only its own shape: the
#          source stays ``[2, 3]``. The list ``resize_ / resize_as_ / set_ / transpose_`` comes
#          from a note in the ``detach()`` documentation of older PyTorch releases, which said
#          such changes would raise an error; PyTorch 2.13's documentation no longer has that
#          note, and the behaviour is as shown.
#
#    原文写道 / The article wrote::
#
#       原地操作(in-place, such as resize_ / resize_as_ / set_ / transpose_)
#       在上面两者中执行都会引发错误或者警告。
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       clone().resize_(6) -> RuntimeError: cannot resize variables that require grad
#       clone().transpose_(0, 1) -> ok
#       detach().resize_(6) -> ok
#       detach().transpose_(0, 1) -> ok
#       torch.Size([2, 3]) torch.Size([3, 2]) torch.Size([6]) torch.Size([3, 2])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结**
#
#       - ``detach()``：与源张量共用内存，脱离计算图，不参与梯度计算。
#       - ``clone()``：新开一块内存，仍在计算图中；梯度穿过它累加到源张量上，它自己的
#         ``.grad`` 不被填充。
#       - 是否共享内存要看数据指针（或改一个看另一个），不能看 ``id``。
#       - 两者可以组合使用，例如 ``clone().detach()`` 得到一份与计算图无关的独立副本。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary**
#
#       - ``detach()``: shares memory with the source, leaves the graph, takes no part in
#         gradient computation.
#       - ``clone()``: fresh memory, still in the graph; gradient passes through it into the
#         source, and its own ``.grad`` is not filled.
#       - Whether memory is shared shows in the data pointer (or by editing one tensor and
#         watching the other), never in ``id``.
#       - The two combine: ``clone().detach()`` is an independent copy with no graph.

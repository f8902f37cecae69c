"""
clone 与 detach 对照表 / clone and detach side by side
======================================================

.. question:: clone()、detach() 和 clone().detach()，梯度各流向哪里？ /
   Where does the gradient go with clone(), detach() and clone().detach()?

.. container:: dt-zh

   参考文章《Tensor:clone, detach》（2020-08-09）；文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the article "Tensor:clone, detach" (2020-08-09); every example is re-typed here as
   our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      这篇文章用一张表概括 ``clone()``、``detach()`` 和 ``clone().detach()``，再用一个
      ``torch.nn.Linear(3, 1)`` 做四个实验，看梯度流向哪里。本页先用代码核对这张表，
      再逐个运行四个实验。

   .. tab-item:: English
      :sync: en

      The article sums up ``clone()``, ``detach()`` and ``clone().detach()`` in one table,
      then runs four experiments with a ``torch.nn.Linear(3, 1)`` to see where gradients go.
      This page first checks the table with code, then runs the four experiments one by one.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **对照表。** 原文的表格如下，三行都与 PyTorch 2.13 一致：
#
#       .. list-table::
#          :header-rows: 1
#
#          * - 操作
#            - 内存
#            - 仍在计算图中
#          * - ``tensor.clone()``
#            - 新开
#            - 是
#          * - ``tensor.detach()``
#            - 共享
#            - 否
#          * - ``tensor.clone().detach()``
#            - 新开
#            - 否
#
#       下面的代码逐行核对：比较数据指针看是否共享内存，看 ``grad_fn`` 判断是否仍在计算图中。
#
#    .. tab-item:: English
#       :sync: en
#
#       **The table.** Here is the article's table; all three rows hold in PyTorch 2.13:
#
#       .. list-table::
#          :header-rows: 1
#
#          * - Operation
#            - Memory
#            - Still in the graph
#          * - ``tensor.clone()``
#            - new
#            - yes
#          * - ``tensor.detach()``
#            - shared
#            - no
#          * - ``tensor.clone().detach()``
#            - new
#            - no
#
#       The code below checks each row: comparing data pointers tells whether memory is
#       shared, and ``grad_fn`` tells whether the result is still in the graph.

import textwrap
import warnings

import doctensor as torch
from doctensor.viz import draw_graph, draw_storage


def show_warnings(caught):
    """Print each caught warning as ``Category: message``, wrapped at 79 columns.

    torch appends the C++ file and line that raised the warning ("(Triggered internally
    at ...)"); that part depends on how torch was built, so we leave it out.
    """
    for w in caught:
        message = str(w.message).split(" (Triggered internally at")[0]
        text = f"{w.category.__name__}: {message}"
        print(textwrap.fill(text, width=79, break_on_hyphens=False))


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
results = {
    "x.clone()": x.clone(),
    "x.detach()": x.detach(),
    "x.clone().detach()": x.clone().detach(),
}
for name, result in results.items():
    shared = result.data_ptr() == x.data_ptr()
    node = result.grad_fn.name() if result.grad_fn is not None else None
    print(f"{name:<20} shared memory: {shared!s:<5}  grad_fn: {node}")

# %%
# .. expected-output::
#
#    x.clone()            shared memory: False  grad_fn: CloneBackward0
#    x.detach()           shared memory: True   grad_fn: None
#    x.clone().detach()   shared memory: False  grad_fn: None
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 1：clone 的结果需要梯度，但拿不到梯度。** 把原始的 ``x`` 送进线性层并反向传播。
#       ``x.grad`` 等于线性层的权重；``clone()`` 的结果需要梯度，但它不是叶子张量，
#       ``.grad`` 为 ``None`` （PyTorch 2.13 读取时还会警告，我们显式捕获并打印）；
#       ``detach()`` 和 ``clone().detach()`` 的结果都不需要梯度。
#
#       原文只在开头调用一次 ``torch.manual_seed(0)``，但四个实验打印的都是同一组权重
#       ``-0.0043, 0.3097, -0.4752``，也就是种子 0 之后第一次创建 ``Linear(3, 1)`` 的结果。
#       在同一个脚本里连续运行时，第二个线性层会拿到后面的随机数，
#       所以我们在每个实验前重新设定种子 0。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 1: the clone requires grad, yet gets none.** The original ``x`` goes
#       through the linear layer and backward. ``x.grad`` equals the layer's weight; the
#       result of ``clone()`` requires grad but is not a leaf, so its ``.grad`` is ``None``
#       (PyTorch 2.13 also warns when it is read; we catch the warning and print it); the
#       results of ``detach()`` and ``clone().detach()`` require no grad.
#
#       The article calls ``torch.manual_seed(0)`` once at the top, yet all four experiments
#       print the same weights ``-0.0043, 0.3097, -0.4752``, which is what the first
#       ``Linear(3, 1)`` created after seed 0 holds. Run one after another in one script, the
#       second layer would draw later random numbers, so we set seed 0 again before each
#       experiment.

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
clone_x = x.clone()
detach_x = x.detach()
clone_detach_x = x.clone().detach()

f = torch.nn.Linear(3, 1)
y = f(x)
y.backward()

print(x.grad)
print(clone_x.requires_grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(clone_x.grad)
show_warnings(caught)
print(detach_x.requires_grad)
print(clone_detach_x.requires_grad)

# %%
# .. expected-output::
#
#    tensor([-0.0043,  0.3097, -0.4752])
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
#       **实验 2：用克隆参与计算，梯度仍然回到原始张量。** 这次送进线性层的是 ``clone_x``。
#       梯度穿过克隆节点，累加到叶子 ``x`` 上；``clone_x`` 自己的 ``.grad`` 依旧是 ``None``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 2: compute with the clone, the gradient still reaches the original.**
#       This time ``clone_x`` goes into the layer. The gradient passes through the clone node
#       and lands on the leaf ``x``; ``clone_x``'s own ``.grad`` is still ``None``.

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
clone_x = x.clone()
detach_x = x.detach()
clone_detach_x = x.detach().clone()

f = torch.nn.Linear(3, 1)
y = f(clone_x)
y.backward()

print(x.grad)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(clone_x.grad)
show_warnings(caught)
print(detach_x.requires_grad)
print(clone_detach_x.requires_grad)

# %%
# .. expected-output::
#
#    tensor([-0.0043,  0.3097, -0.4752])
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
#       下图是 ``y`` 的计算图，由 ``doctensor.viz.draw_graph`` 在构建时画出，箭头是梯度流动的方向。
#       ``nn.Linear`` 对一维输入先把它变成一行（``ViewBackward0``），算 ``AddmmBackward0``，
#       再变回来。梯度从 ``AddmmBackward0`` 分三路：偏置 ``f.bias`` 的 ``AccumulateGrad``；
#       经 ``TBackward0`` 到权重 ``f.weight``；经 ``ViewBackward0`` 和 ``CloneBackward0``
#       到叶子 ``x``。``clone_x`` 只是克隆节点的输出，图中没有属于它的 ``AccumulateGrad``，
#       所以它的 ``.grad`` 是 ``None``。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below is the graph of ``y``, drawn at build time by
#       ``doctensor.viz.draw_graph``; arrows point the way gradients flow. For a
#       one-dimensional input ``nn.Linear`` first views it as one row (``ViewBackward0``),
#       computes ``AddmmBackward0``, and views the result back. From ``AddmmBackward0`` the
#       gradient goes three ways: to the ``AccumulateGrad`` of the bias ``f.bias``; through
#       ``TBackward0`` to the weight ``f.weight``; through ``ViewBackward0`` and
#       ``CloneBackward0`` to the leaf ``x``. ``clone_x`` is only the clone node's output and
#       has no ``AccumulateGrad`` of its own, so its ``.grad`` is ``None``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(y, params={"x": x, "f.weight": f.weight, "f.bias": f.bias}, name="y", saved=False)

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 3：源张量不需要梯度，克隆后再开启。** ``x`` 不需要梯度；
#       ``x.clone().requires_grad_()`` 是一个新的叶子张量，梯度就停在它身上，
#       ``x.grad`` 为 ``None``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 3: the source needs no grad; the clone turns it on.** ``x`` requires no
#       grad; ``x.clone().requires_grad_()`` is a new leaf, so the gradient stops there and
#       ``x.grad`` is ``None``.

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=False)
clone_x = x.clone().requires_grad_()
detach_x = x.detach()
clone_detach_x = x.detach().clone()

f = torch.nn.Linear(3, 1)
y = f(clone_x)
y.backward()

print(x.grad)
print(clone_x.grad)
print(detach_x.requires_grad)
print(clone_detach_x.requires_grad)

# %%
# .. expected-output::
#
#    None
#    tensor([-0.0043,  0.3097, -0.4752])
#    False
#    False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 4：detach 的结果随参数更新而变化。** ``w = f.weight.detach()`` 与权重共享内存。
#       反向传播后，权重的梯度就是输入 ``x = [1, 2, 3]``；学习率 0.1 的 SGD 走一步，
#       权重减去 ``[0.1, 0.2, 0.3]``，``w`` 也随之改变。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 4: the detached weight follows the update.** ``w = f.weight.detach()``
#       shares memory with the weight. After backward, the weight's gradient is the input
#       ``x = [1, 2, 3]``; one SGD step with learning rate 0.1 subtracts ``[0.1, 0.2, 0.3]``
#       from the weight, and ``w`` changes with it.

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
f = torch.nn.Linear(3, 1)
w = f.weight.detach()
print(f.weight)
print(w)

y = f(x)
y.backward()

optimizer = torch.optim.SGD(f.parameters(), 0.1)
optimizer.step()

print(f.weight)
print(w)

# %%
# .. expected-output::
#
#    Parameter containing:
#    tensor([[-0.0043,  0.3097, -0.4752]], requires_grad=True)
#    tensor([[-0.0043,  0.3097, -0.4752]])
#    Parameter containing:
#    tensor([[-0.1043,  0.1097, -0.7752]], requires_grad=True)
#    tensor([[-0.1043,  0.1097, -0.7752]])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下图由 ``doctensor.viz.draw_storage`` 在构建时画出：``f.weight`` 和 ``w``
#       读同一块 3 个格子的存储，格中是更新后的权重。两者共用一个版本计数器，版本都是 2：
#       线性层初始化权重时原地写了一次，``optimizer.step()`` 又写了一次。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below is drawn at build time by ``doctensor.viz.draw_storage``:
#       ``f.weight`` and ``w`` read the same storage of 3 cells, which holds the updated
#       weights. They share one version counter, at 2: the layer wrote its weights in place
#       once when it initialised them, and ``optimizer.step()`` wrote them once more.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("f.weight", f.weight), ("w = f.weight.detach()", w))

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **改变形状的原地操作。** 原文还说，``resize_``、``resize_as_``、``set_``、``transpose_``
#       这类原地操作“在两者任意一个执行都会引发错误”。我们在表中三种结果上分别试一试
#       ``resize_`` 和 ``transpose_``：
#
#    .. tab-item:: English
#       :sync: en
#
#       **In-place operations that change the shape.** The article also says that in-place
#       operations such as ``resize_``, ``resize_as_``, ``set_`` and ``transpose_`` "raise an
#       error on either of the two". We try ``resize_`` and ``transpose_`` on each of the
#       three results of the table:

source = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
makers = {
    "clone()": lambda: source.clone(),
    "detach()": lambda: source.detach(),
    "clone().detach()": lambda: source.clone().detach(),
}
edits = {
    "resize_(6)": lambda t: t.resize_(6),
    "transpose_(0, 1)": lambda t: t.transpose_(0, 1),
}
for name, make in makers.items():
    for edit_name, edit in edits.items():
        try:
            shape = tuple(edit(make()).shape)
            print(f"{name}.{edit_name}: ok, shape {shape}")
        except RuntimeError as e:
            print(f"{name}.{edit_name}: {type(e).__name__}: {e}")
print("source keeps its shape:", tuple(source.shape))

# %%
# .. expected-output::
#
#    clone().resize_(6): RuntimeError: cannot resize variables that require grad
#    clone().transpose_(0, 1): ok, shape (3, 2)
#    detach().resize_(6): ok, shape (6,)
#    detach().transpose_(0, 1): ok, shape (3, 2)
#    clone().detach().resize_(6): ok, shape (6,)
#    clone().detach().transpose_(0, 1): ok, shape (3, 2)
#    source keeps its shape: (2, 3)
#
# .. erratum:: 改形状的原地操作并不总会报错 / Shape-changing in-place ops do not always fail
#    :article: Tensor:clone, detach
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          在 PyTorch 2.13 中，只有需要梯度的张量不允许 ``resize_`` （和 ``resize_as_``），
#          所以只有克隆结果上的 ``resize_`` 报错。``transpose_`` 在三种结果上都能执行；
#          分离出的张量也都能改变大小，而且只改变它自己，源张量仍是 ``(2, 3)``。
#          这份清单出自旧版 PyTorch 文档中 ``detach()`` 的一段说明（称这类修改会报错），
#          PyTorch 2.13 的文档已经删去了这段说明。
#
#       .. tab-item:: English
#          :sync: en
#
#          In PyTorch 2.13 only a tensor that requires grad refuses ``resize_`` (and
#          ``resize_as_``), so only ``resize_`` on the clone fails. ``transpose_`` runs on
#          all three results; the detached tensors can be resized too, and that changes only
#          themselves: the source is still ``(2, 3)``. The list comes from a note in the
#          ``detach()`` documentation of older PyTorch releases (saying such changes raise an
#          error); PyTorch 2.13's documentation no longer has it.
#
#    原文写道 / The article wrote::
#
#       一些原地操作(in-place, such as resize_ / resize_as_ / set_ / transpose_)
#       在两者任意一个执行都会引发错误。
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       clone().resize_(6): RuntimeError: cannot resize variables that require grad
#       clone().transpose_(0, 1): ok, shape (3, 2)
#       detach().resize_(6): ok, shape (6,)
#       detach().transpose_(0, 1): ok, shape (3, 2)
#       clone().detach().resize_(6): ok, shape (6,)
#       clone().detach().transpose_(0, 1): ok, shape (3, 2)
#       source keeps its shape: (2, 3)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结：** 想要一份独立又不带计算图的副本，用 ``clone().detach()`` （或
#       ``detach().clone()``）；只想切断梯度而不复制，用 ``detach()``，但要记住它与源张量共享内存；
#       想让副本继续把梯度传回源张量，用 ``clone()``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary:** for an independent copy with no graph, use ``clone().detach()`` (or
#       ``detach().clone()``); to cut the gradient without copying, use ``detach()``, keeping
#       in mind that it shares the source's memory; to keep passing gradients back to the
#       source through a copy, use ``clone()``.

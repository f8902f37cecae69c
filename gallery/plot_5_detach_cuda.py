"""
GPU 上的 detach() 与 .cpu() / detach() and .cpu() on the GPU
============================================================

.. question:: GPU 上的张量，detach() 和 .cpu() 各复制了什么？ /
   On the GPU, what do detach() and .cpu() copy?

.. container:: dt-zh

   参考文章《Pytorch》（一篇关于 ``detach()`` 与 GPU 的笔记）；
   文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the article "Pytorch" (a note on ``detach()`` and the GPU); every example is re-typed
   here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      ``detach()`` 返回的张量与原张量共享数据，但不再参与反向传播。这一点在 GPU 上也一样：
      只调用 ``detach()``，数据仍在同一块显存里；再调用 ``.cpu()``，数据才被复制到主存，
      两者从此互不影响。本页运行原文的两个例子，并补充两个容易忽略的细节：
      ``requires_grad=True).cuda()`` 得到的并不是叶子张量；``.cpu()`` 只有在张量不在 CPU
      上时才会复制。

   .. tab-item:: English
      :sync: en

      The tensor returned by ``detach()`` shares its data with the original but takes no
      part in backward. The same holds on the GPU: after ``detach()`` alone, the data stays
      in the same device memory; only a further ``.cpu()`` copies it to host memory, after
      which the two are independent. This page runs the article's two examples and adds two
      details that are easy to miss: ``requires_grad=True).cuda()`` does not give a leaf
      tensor, and ``.cpu()`` copies only when the tensor is not on the CPU already.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **detach() 不影响原张量的梯度。** ``z = y.detach()`` 与 ``y`` 共享数据、没有
#       ``grad_fn``；对 ``y`` 的反向传播照常进行，
#       ``x.grad`` 是 :math:`\partial(2x)/\partial x = 2`。
#
#    .. tab-item:: English
#       :sync: en
#
#       **detach() leaves the original's gradient alone.** ``z = y.detach()`` shares ``y``'s
#       data and has no ``grad_fn``; backward through ``y`` runs as usual and ``x.grad`` is
#       :math:`\partial(2x)/\partial x = 2`.

import textwrap
import warnings

import doctensor as torch
from doctensor.viz import draw_graph


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
y = x * 2
z = y.detach()
print("y:", y)
print("z:", z)
print("shares data:", z.data_ptr() == y.data_ptr())

y.sum().backward()
print("x.grad:", x.grad)

# %%
# .. expected-output::
#
#    y: tensor([2., 4., 6.], grad_fn=<MulBackward0>)
#    z: tensor([2., 4., 6.])
#    shares data: True
#    x.grad: tensor([2., 2., 2.])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **在 CPU 上，.cpu() 不复制。** 原文最后总结说，“是否调用 ``.cpu()``
#       是决定是否共享数据的关键”。这只对 GPU 上的张量成立（见下文）。张量本来就在 CPU 上时，
#       ``.cpu()`` 直接返回它自己，``detach().cpu()`` 仍与原张量共享数据。
#       需要一份确定独立的副本时，用 ``detach().clone()``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **On the CPU, .cpu() does not copy.** The article concludes that calling ``.cpu()``
#       is what decides whether data is shared. That holds for tensors on the GPU only (see
#       below). When a tensor already lives on the CPU, ``.cpu()`` returns the tensor itself,
#       so ``detach().cpu()`` still shares the original's data. When an independent copy is
#       needed for sure, use ``detach().clone()``.

y_host = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2
detached = y_host.detach()
print(detached.cpu() is detached)
print(detached.cpu().data_ptr() == y_host.data_ptr())
print(detached.clone().data_ptr() == y_host.data_ptr())

# %%
# .. expected-output::
#
#    True
#    True
#    False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **在 GPU 上：修改 z，y 也变。** 原文的第二个例子把张量放到 GPU 上，再修改
#       ``y.detach()`` 的第一个元素：``y`` 和 ``z`` 同时变成 ``[100., 4., 6.]``。
#       下面的代码块使用 CUDA 设备；没有 GPU 时，doctensor 在模拟的 CUDA 设备上运行它们。
#
#    .. tab-item:: English
#       :sync: en
#
#       **On the GPU: edit z, and y changes.** The article's second example moves the tensor
#       to the GPU and then edits the first element of ``y.detach()``: ``y`` and ``z`` both
#       become ``[100., 4., 6.]``. The next code blocks use the CUDA device; without a GPU,
#       doctensor runs them on its emulated CUDA device.
#
# .. doctensor-device::

# The recorded outputs of the CUDA blocks are PyTorch 2.13's outputs of the same code on the
# CPU, with torch's repr rule for a CUDA tensor applied: ``device='cuda:0'`` comes first among
# the suffixes, before ``grad_fn``. (The torch we check against has no GPU.)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).cuda()
y = x * 2
z = y.detach()
z[0] = 100.0
print("y:", y)
print("z:", z)

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(y, name="y")

# %%
# .. expected-output::
#    :requires: cuda
#
#    y: tensor([100.,   4.,   6.], device='cuda:0', grad_fn=<MulBackward0>)
#    z: tensor([100.,   4.,   6.], device='cuda:0')
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **注意：这里的 x 不是叶子张量（计算图的叶子节点）。**
#       ``torch.tensor(..., requires_grad=True)`` 创建的叶子在 CPU 上；
#       ``.cuda()`` 是对它的一次可求导的复制（``ToCopyBackward0``），
#       名字 ``x`` 指向的是复制的结果。反向传播之后，``x.grad`` 是 ``None``
#       （读取时 PyTorch 还会警告），梯度落在了那个已经没有名字的 CPU 叶子上。
#       上图是 ``y`` 的计算图（``doctensor.viz.draw_graph`` 在构建时画出）：
#       ``MulBackward0`` → ``ToCopyBackward0`` → 叶子的 ``AccumulateGrad``，
#       其中没有属于 ``x`` 的 ``AccumulateGrad``。
#       想在 GPU 上得到叶子，应直接在 GPU 上创建它：
#       ``torch.tensor(..., device="cuda", requires_grad=True)``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Careful: x is not a leaf here.** ``torch.tensor(..., requires_grad=True)`` creates
#       the leaf on the CPU; ``.cuda()`` is a differentiable copy of it
#       (``ToCopyBackward0``), and the name ``x`` points at the copy. After backward,
#       ``x.grad`` is ``None`` (and PyTorch warns when it is read): the gradient went to the
#       CPU leaf, which no name refers to any more. The picture above, the graph of ``y``
#       drawn at build time by ``doctensor.viz.draw_graph``, shows it: ``MulBackward0`` →
#       ``ToCopyBackward0`` → the leaf's ``AccumulateGrad``, and no ``AccumulateGrad`` for
#       ``x``. To get a leaf on the GPU, create it there:
#       ``torch.tensor(..., device="cuda", requires_grad=True)``.

print(x.is_leaf, x.grad_fn.name())
y.sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(x.grad)
show_warnings(caught)

leaf = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
(leaf * 2).sum().backward()
print(leaf.is_leaf, leaf.grad)

# %%
# .. expected-output::
#    :requires: cuda
#
#    False ToCopyBackward0
#    None
#    UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being
#    accessed. Its .grad attribute won't be populated during autograd.backward(). If
#    you indeed want the .grad field to be populated for a non-leaf Tensor, use
#    .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by
#    mistake, make sure you access the leaf Tensor instead. See
#    github.com/pytorch/pytorch/pull/30531 for more information.
#    True tensor([2., 2., 2.], device='cuda:0')
#
# .. erratum:: x 不是 GPU 上的叶子 / x is not a leaf on the GPU
#    :article: Pytorch
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文的注释说这一行“创建一个在 GPU 上的 tensor，并启用梯度计算”。实际上需要梯度的叶子
#          创建在 CPU 上，``x`` 只是它在 GPU 上的副本，是一个非叶子张量，``x.grad``
#          永远不会被填充。例子里打印的 ``y`` 和 ``z`` 不受影响，但若想训练 ``x``，
#          就必须直接在 GPU 上创建叶子。
#
#       .. tab-item:: English
#          :sync: en
#
#          The article's comment says this line "creates a tensor on the GPU with gradients
#          enabled". In fact the leaf that requires grad is created on the CPU, and ``x`` is
#          only its copy on the GPU, a non-leaf whose ``.grad`` is never filled. The printed
#          ``y`` and ``z`` are unaffected, but to train ``x`` the leaf must be created on the
#          GPU directly.
#
#    原文写道 / The article wrote::
#
#       # 创建一个在 GPU 上的 tensor,并启用梯度计算
#       x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).cuda()
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       False ToCopyBackward0
#       None
#       UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being
#       accessed. ...
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **detach().cpu()：复制到主存，不再共享。** 原文的结论是：再调用 ``.cpu()``，
#       得到的就是主存里的一份副本，修改它不会影响 GPU 上的 ``y``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **detach().cpu(): copied to host memory, no longer shared.** The article concludes
#       that with a further ``.cpu()`` the result is a copy in host memory, and editing it
#       leaves ``y`` on the GPU alone.

z_host = y.detach().cpu()
z_host[1] = -1.0
print("y:", y)
print("z_host:", z_host)

# %%
# .. expected-output::
#    :requires: cuda
#
#    y: tensor([100.,   4.,   6.], device='cuda:0', grad_fn=<MulBackward0>)
#    z_host: tensor([100.,  -1.,   6.])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结：** ``detach()`` 只切断计算图，从不复制数据，在 CPU 和 GPU 上都一样；
#       ``.cpu()`` 只在跨设备时复制；``.cuda()`` 作用在需要梯度的张量上时，得到的是一个
#       非叶子的副本。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary:** ``detach()`` only cuts the graph and never copies data, on the CPU and
#       the GPU alike; ``.cpu()`` copies only across devices; ``.cuda()`` applied to a tensor
#       that requires grad gives a copy that is not a leaf.

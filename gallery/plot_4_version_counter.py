"""
原地修改何时让反向传播报错 / When an in-place edit breaks backward
==================================================================

.. question:: 原地修改在什么时候会让反向传播报错？ /
   When does an in-place edit make backward() fail?

.. container:: dt-zh

   参考文章《Tensor.data与Tensor.detach()的区别》（CarlYoung）的后半部分；
   文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the second half of the article ":zh:`Tensor.data与Tensor.detach()的区别`" (CarlYoung);
   every example is re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      通过 ``detach()`` 得到的张量做原地修改，并不一定会让反向传播报错。关键在于：
      被改动的那个张量，是否被某个反向函数 **保存** 下来，留待反向传播时使用。

      - ``sigmoid`` 的导数用输出表示，:math:`σ'(x) = y(1 - y)`，所以它保存输出 ``y``；
      - ``x ** 2`` 的导数用输入表示，:math:`2x`，所以它保存输入 ``x``，而不是输出；
      - 矩阵乘法的导数要用到两个输入，所以两个输入都被保存；
      - 加法的导数是常数 1，什么都不用保存。

      每个被保存的张量都带着保存时的版本号。反向传播取出它时，若当前版本已经变了，就报错；
      没有被保存的张量随便改，反向传播都察觉不到，也不需要察觉。
      本页依次运行原文的四个实验。

   .. tab-item:: English
      :sync: en

      An in-place edit through a ``detach()``-ed tensor does not always break backward. What
      decides it is whether the edited tensor was **saved** by some backward function for
      later use.

      - The derivative of ``sigmoid`` is written with its output,
        :math:`σ'(x) = y(1 - y)`, so it saves the output ``y``;
      - the derivative of ``x ** 2`` is written with its input, :math:`2x`, so it saves the
        input ``x``, not the output;
      - a matrix product needs both inputs for its derivative, so it saves both;
      - the derivative of an addition is the constant 1: nothing is saved.

      Every saved tensor carries the version it had when it was saved. When backward unpacks
      it and finds a different version, it raises; a tensor that was not saved can be edited
      freely, and backward neither notices nor needs to. This page runs the article's four
      experiments in turn.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 1：sigmoid 的输出被改动，报错。** ``y.detach().zero_()`` 把 ``y`` 清零，
#       而 ``SigmoidBackward0`` 正保存着 ``y``。报错信息很长，我们按 79 列折行打印。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 1: the output of sigmoid is edited, backward fails.**
#       ``y.detach().zero_()`` zeroes ``y``, which is exactly what ``SigmoidBackward0`` saved.
#       The message is long, so we print it wrapped at 79 columns.

import textwrap

import doctensor as torch
from doctensor.viz import draw_graph, draw_storage


def show(text):
    """Print a long message wrapped at 79 columns, so that the page stays narrow."""
    print(textwrap.fill(text, width=79, break_on_hyphens=False))


x = torch.tensor(0.0, requires_grad=True)
y = x.sigmoid()
y.detach().zero_()
print(y)
try:
    y.backward()
except RuntimeError as e:
    show(f"{type(e).__name__}: {e}")

# %%
# .. expected-output::
#
#    tensor(0., grad_fn=<SigmoidBackward0>)
#    RuntimeError: one of the variables needed for gradient computation has been
#    modified by an inplace operation: [torch.FloatTensor []], which is output 0 of
#    Sigmoid, is at version 1; expected version 0 instead. Hint: enable anomaly
#    detection to find the operation that failed to compute its gradient, with
#    torch.autograd.set_detect_anomaly(True, check_nan=False).
#
# .. erratum:: 标量 sigmoid 的节点名与报错文字 / Scalar sigmoid: node name and error text
#    :article: Tensor.data与Tensor.detach()的区别
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          报错本身与原文一致，文字有三处变化：节点名现在是 ``SigmoidBackward0``；
#          报错中产生该张量的节点写作 ``Sigmoid``；提示的结尾变成
#          ``set_detect_anomaly(True, check_nan=False)``。我们只打印报错的类型和信息，不打印回溯。
#
#       .. tab-item:: English
#          :sync: en
#
#          The failure is the article's; three pieces of text have changed: the node is now
#          ``SigmoidBackward0``; the error names the node that produced the tensor as
#          ``Sigmoid``; and the hint now ends in ``set_detect_anomaly(True, check_nan=False)``.
#          We print only the error's type and message, not the traceback.
#
#    原文输出 / The article printed::
#
#       tensor(0., grad_fn=<SigmoidBackward>)
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor []], which is output 0 of
#       SigmoidBackward, is at version 1; expected version 0 instead. Hint: enable
#       anomaly detection to find the operation that failed to compute its gradient,
#       with torch.autograd.set_detect_anomaly(True).
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor(0., grad_fn=<SigmoidBackward0>)
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor []], which is output 0 of
#       Sigmoid, is at version 1; expected version 0 instead. Hint: enable anomaly
#       detection to find the operation that failed to compute its gradient, with
#       torch.autograd.set_detect_anomaly(True, check_nan=False).
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 2：平方的输出被改动，不报错，梯度也正确。** ``PowBackward0`` 保存的是输入 ``x``，
#       没有保存输出 ``y``。把 ``y`` 清零不影响求导所需的任何值，所以 ``x.grad`` 仍是
#       :math:`2x = 2`。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 2: the output of a square is edited, no error and a correct gradient.**
#       ``PowBackward0`` saved the input ``x``, not the output ``y``. Zeroing ``y`` touches
#       nothing the derivative needs, so ``x.grad`` is still :math:`2x = 2`.

x = torch.tensor(1.0, requires_grad=True)
y = x**2
y.detach().zero_()
print(y)
y.backward()
print(x.grad)

# %%
# .. expected-output::
#
#    tensor(0., grad_fn=<PowBackward0>)
#    tensor(2.)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 3：矩阵乘法的输入被改动，报错。** ``y`` 是一个叶子张量经 ``view(-1, 1)``
#       得到的视图，它作为 ``torch.matmul`` 的输入被保存。``tmp = y.detach()`` 与 ``y``
#       共享内存和版本计数器，``tmp.mul_(2)`` 把版本推到 1，反向传播于是报错；
#       报错后 ``x.grad`` 仍是 ``None``。
#
#       报错中有一处值得细看：产生该张量的节点写作 ``AsStrided``，而不是 ``View``。
#       视图的版本在它自己不知情的情况下变了（改动来自共享计数器的 ``tmp``），
#       autograd 无法确定这块内存是如何被改写的，于是在下次读取 ``y.grad_fn`` 时，
#       把它重建为一个通用的 ``AsStridedBackward0`` 节点。最后一行打印 ``y`` 就能看到这一点。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 3: an input of a matrix product is edited, backward fails.** ``y`` is a
#       view, ``view(-1, 1)`` of a leaf, and ``torch.matmul`` saves it as an input.
#       ``tmp = y.detach()`` shares ``y``'s memory and version counter; ``tmp.mul_(2)``
#       moves the version to 1, and backward raises; after the error ``x.grad`` is still
#       ``None``.
#
#       One detail of the message deserves a closer look: the node that produced the tensor
#       is named ``AsStrided``, not ``View``. The view's version changed behind its back (the
#       edit came through ``tmp``, which shares the counter), so autograd cannot tell how
#       that memory was rewritten; the next time ``y.grad_fn`` is read, it is rebuilt as a
#       generic ``AsStridedBackward0`` node. Printing ``y`` on the last line shows it.

x = torch.tensor([1, 1, 1], dtype=torch.float, requires_grad=True)
y = torch.tensor([2, 4, 6], dtype=torch.float, requires_grad=True).view(-1, 1)
print(y)
z = torch.matmul(x, y)
tmp = y.detach()
print(tmp.mul_(2))
print(y.requires_grad)
try:
    z.backward()
except RuntimeError as e:
    show(f"{type(e).__name__}: {e}")
print(x.grad)
print(y)

# %%
# .. expected-output::
#
#    tensor([[2.],
#            [4.],
#            [6.]], grad_fn=<ViewBackward0>)
#    tensor([[ 4.],
#            [ 8.],
#            [12.]])
#    True
#    RuntimeError: one of the variables needed for gradient computation has been
#    modified by an inplace operation: [torch.FloatTensor [3, 1]], which is output 0
#    of AsStrided, is at version 1; expected version 0 instead. Hint: enable anomaly
#    detection to find the operation that failed to compute its gradient, with
#    torch.autograd.set_detect_anomaly(True, check_nan=False).
#    None
#    tensor([[ 4.],
#            [ 8.],
#            [12.]], grad_fn=<AsStridedBackward0>)
#
# .. erratum:: ViewBackward 与报错中的节点名 / ViewBackward and the node named in the error
#    :article: Tensor.data与Tensor.detach()的区别
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          视图的反向节点现在叫 ``ViewBackward0``。报错中，产生该张量的节点在 PyTorch 2.13 中写作
#          ``AsStrided``：被改动的视图在读取时重建了它的 ``grad_fn`` （见上文），
#          而且节点名不再带 ``Backward`` 后缀。提示的结尾也变成了
#          ``set_detect_anomaly(True, check_nan=False)``。原文在报错后的 ``x.grad`` 没有显示输出，
#          它的值是 ``None``。
#
#       .. tab-item:: English
#          :sync: en
#
#          The backward node of a view is now called ``ViewBackward0``. In the error, PyTorch
#          2.13 names the node that produced the tensor ``AsStrided``: the edited view rebuilt
#          its ``grad_fn`` when it was read (see above), and node names in this message no
#          longer carry the ``Backward`` suffix. The hint now ends in
#          ``set_detect_anomaly(True, check_nan=False)``. The article shows no output for
#          ``x.grad`` after the error; its value is ``None``.
#
#    原文输出 / The article printed::
#
#       tensor([[2.],
#               [4.],
#               [6.]], grad_fn=<ViewBackward>)
#       tensor([[ 4.],
#               [ 8.],
#               [12.]])
#       True
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor [3, 1]], which is output 0
#       of ViewBackward, is at version 1; expected version 0 instead. Hint: enable
#       anomaly detection to find the operation that failed to compute its gradient,
#       with torch.autograd.set_detect_anomaly(True).
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([[2.],
#               [4.],
#               [6.]], grad_fn=<ViewBackward0>)
#       tensor([[ 4.],
#               [ 8.],
#               [12.]])
#       True
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor [3, 1]], which is output 0
#       of AsStrided, is at version 1; expected version 0 instead. Hint: enable anomaly
#       detection to find the operation that failed to compute its gradient, with
#       torch.autograd.set_detect_anomaly(True, check_nan=False).
#       None
#       tensor([[ 4.],
#               [ 8.],
#               [12.]], grad_fn=<AsStridedBackward0>)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下面两张图由 ``doctensor.viz`` 在构建时画出。第一张是存储：没有名字的叶子
#       （即 ``y._base``）、它的视图 ``y`` 和 ``tmp = y.detach()`` 读同一块 3 个格子的存储，
#       格中已是 4、8、12；三者共用一个版本计数器，版本都是 1。
#       第二张是 ``z`` 的计算图。``torch.matmul`` 把一维的 ``x`` 变成一行
#       （``UnsqueezeBackward0``），做矩阵乘法（``MmBackward0``），再去掉这一维
#       （``SqueezeBackward4``）。``MmBackward0`` 保存了 ``x`` 的这一行（完好）和 ``y``
#       （标为 “modified in place!”，报错就来自这里）。``z`` 的图里仍是当初的
#       ``ViewBackward0``；重建为 ``AsStridedBackward0`` 的只是 ``y.grad_fn``。
#
#    .. tab-item:: English
#       :sync: en
#
#       The two pictures below are drawn at build time by ``doctensor.viz``. First, storage:
#       the nameless leaf (``y._base``), its view ``y`` and ``tmp = y.detach()`` read one
#       storage of 3 cells, which now holds 4, 8, 12; the three share one version counter,
#       at 1. Second, the graph of ``z``. ``torch.matmul`` turns the one-dimensional ``x``
#       into a row (``UnsqueezeBackward0``), multiplies matrices (``MmBackward0``) and drops
#       that dimension again (``SqueezeBackward4``). ``MmBackward0`` saved the row of ``x``
#       (intact) and ``y`` (marked "modified in place!": that is where the error comes
#       from). The graph of ``z`` still holds the original ``ViewBackward0``; only
#       ``y.grad_fn`` was rebuilt as ``AsStridedBackward0``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("y._base", y._base), ("y", y), ("tmp = y.detach()", tmp))

# %%

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(z, params={"x": x, "y._base": y._base}, name="z")

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **实验 4：加法的输入被改动，不报错。** 这次 ``y`` 是叶子张量，用 ``torch.add`` 与 ``x``
#       相加。加法什么都不保存，所以 ``tmp.mul_(2)`` 虽然改了 ``y`` （它的版本也变成了 1），
#       反向传播照常完成，``x.grad`` 是全 1。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Experiment 4: an input of an addition is edited, no error.** This time ``y`` is a
#       leaf, added to ``x`` with ``torch.add``. An addition saves nothing, so although
#       ``tmp.mul_(2)`` changes ``y`` (its version becomes 1 as well), backward completes and
#       ``x.grad`` is all ones.

x = torch.tensor([1, 1, 1], dtype=torch.float, requires_grad=True)
y = torch.tensor([2, 4, 6], dtype=torch.float, requires_grad=True)
print(y)
z = torch.add(x, y)
tmp = y.detach()
print(tmp.mul_(2))
print(y)
print(y._version)
z.sum().backward()
print(x.grad)

# %%
# .. expected-output::
#
#    tensor([2., 4., 6.], requires_grad=True)
#    tensor([ 4.,  8., 12.])
#    tensor([ 4.,  8., 12.], requires_grad=True)
#    1
#    tensor([1., 1., 1.])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结：** 通过 ``detach()`` 的原地修改，只有改到了某个反向函数保存的张量时才会报错；
#       报错说明梯度本来会算错，不报错则说明梯度不受影响。原文也提醒，直接修改计算图中的节点很少见，
#       ``detach()`` 更常用来取出中间结果做记录或调试。若换成 ``.data``，版本计数器不再相通，
#       本该报错的情形会悄悄算出错误的梯度，见 :doc:`plot_4_data_vs_detach`。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary:** an in-place edit through ``detach()`` raises only when it hits a tensor
#       that some backward function saved; the error means the gradient would have been
#       wrong, and no error means the gradient is unaffected. As the article notes, editing
#       graph nodes directly is rare; ``detach()`` is mostly used to take out intermediate
#       values for logging or debugging. With ``.data`` instead, the version counters are not
#       shared, and the cases that should raise quietly compute wrong gradients, see
#       :doc:`plot_4_data_vs_detach`.

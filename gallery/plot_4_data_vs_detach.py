"""
.data 与 detach() 的区别 / .data versus detach()
================================================

.. question:: 为什么经 .data 的修改悄无声息，经 detach() 的修改却会报错？ /
   Why does an edit through .data go unnoticed, while one through detach() raises?

.. container:: dt-zh

   参考文章《Tensor.data与Tensor.detach()的区别》（CarlYoung）；文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the article ":zh:`Tensor.data与Tensor.detach()的区别`" (CarlYoung); every example
   is re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      ``x.data`` 和 ``x.detach()`` 都给出一个与 ``x`` 共享内存、不需要梯度的张量。
      区别只有一个，却很要紧：``detach()`` 的结果与 ``x`` 共用同一个 **版本计数器**，
      ``.data`` 的结果则有自己的计数器。autograd 靠版本计数器发现“反向传播要用的值被原地改过了”。
      所以通过 ``detach()`` 的修改会被发现并报错，通过 ``.data`` 的修改则悄无声息地算出错误的梯度。

      原文写于 PyTorch 1.1.0 时代，其中的 ``grad_fn`` 名字和报错文字在 PyTorch 2.13 中已经改变；
      本页记录的是 PyTorch 2.13 的真实输出，并在勘误框里列出原文的旧输出。
      同一篇文章中“哪些原地修改会让反向传播报错”的实验见 :doc:`plot_4_version_counter`。

   .. tab-item:: English
      :sync: en

      ``x.data`` and ``x.detach()`` both give a tensor that shares ``x``'s memory and requires
      no grad. They differ in one thing only, but it matters: the result of ``detach()``
      shares ``x``'s **version counter**, while the result of ``.data`` gets a counter of its
      own. The version counter is how autograd notices that a value backward needs was edited
      in place. Edits through ``detach()`` are therefore caught with an error; edits through
      ``.data`` silently produce a wrong gradient.

      The article was written in the days of PyTorch 1.1.0; the ``grad_fn`` names and error
      text it shows have changed since. This page records what PyTorch 2.13 really prints,
      and the erratum boxes list the article's old output. The same article's experiments on
      which in-place edits break backward are on :doc:`plot_4_version_counter`.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **通过 detach() 修改：被发现。** ``sigmoid`` 的反向传播要用到它自己的输出
#       （:math:`\sigma'(a) = \sigma(a)\,(1 - \sigma(a))`），所以 autograd 保存了 ``out``，
#       并记下它当时的版本 0。``c = out.detach()`` 与 ``out`` 共享内存和版本计数器，
#       ``c.zero_()`` 把两者一起清零，版本变为 1。反向传播取出 ``out`` 时发现版本不符，于是报错。
#       报错信息很长，我们按 79 列折行打印。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Editing through detach(): caught.** The backward of ``sigmoid`` needs its own output
#       (:math:`\sigma'(a) = \sigma(a)\,(1 - \sigma(a))`), so autograd saves ``out`` together
#       with its version at that moment, 0. ``c = out.detach()`` shares both the memory and the
#       version counter of ``out``; ``c.zero_()`` zeroes the two at once and the version
#       becomes 1. When backward unpacks ``out`` it sees the wrong version and raises. The
#       message is long, so we print it wrapped at 79 columns.

import textwrap

import doctensor as torch
from doctensor.viz import draw_graph, draw_storage


def show(text):
    """Print a long message wrapped at 79 columns, so that the page stays narrow."""
    print(textwrap.fill(text, width=79, break_on_hyphens=False))


a = torch.tensor([1, 2, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.detach()
print(c.zero_())
print(out)
print(out._version)
try:
    out.sum().backward()
except RuntimeError as e:
    show(f"{type(e).__name__}: {e}")

# %%
# .. expected-output::
#
#    tensor([0., 0., 0.])
#    tensor([0., 0., 0.], grad_fn=<SigmoidBackward0>)
#    1
#    RuntimeError: one of the variables needed for gradient computation has been
#    modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of
#    Sigmoid, is at version 1; expected version 0 instead. Hint: enable anomaly
#    detection to find the operation that failed to compute its gradient, with
#    torch.autograd.set_detect_anomaly(True, check_nan=False).
#
# .. erratum:: 旧版的节点名与报错文字 / Old node name and error text
#    :article: Tensor.data与Tensor.detach()的区别
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          行为与原文一致，文字有三处变化：反向节点现在叫 ``SigmoidBackward0`` （带重载序号）；
#          报错信息中产生该张量的节点写作 ``Sigmoid``，不再写 ``SigmoidBackward``；
#          提示的最后一句变成了 ``set_detect_anomaly(True, check_nan=False)``。
#          （原文在 Jupyter 中直接显示表达式的值，我们改用 ``print``；
#          报错只打印类型和信息，不打印回溯。）
#
#       .. tab-item:: English
#          :sync: en
#
#          The behaviour is the article's; three pieces of text have changed: the backward
#          node is now called ``SigmoidBackward0`` (with an overload number); the error names
#          the node that produced the tensor as ``Sigmoid`` instead of ``SigmoidBackward``; and
#          the hint now ends in ``set_detect_anomaly(True, check_nan=False)``. (The article
#          displayed values in Jupyter; we use ``print``, and print only the error's type and
#          message, not the traceback.)
#
#    原文输出 / The article printed::
#
#       tensor([0., 0., 0.])
#       tensor([0., 0., 0.], grad_fn=<SigmoidBackward>)
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of
#       SigmoidBackward, is at version 1; expected version 0 instead. Hint: enable
#       anomaly detection to find the operation that failed to compute its gradient,
#       with torch.autograd.set_detect_anomaly(True).
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([0., 0., 0.])
#       tensor([0., 0., 0.], grad_fn=<SigmoidBackward0>)
#       1
#       RuntimeError: one of the variables needed for gradient computation has been
#       modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of
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
#       下面两张图由 ``doctensor.viz`` 在构建时画出。第一张：``out`` 和 ``c`` 读同一块存储，
#       格中全是 0，两者的版本都是 1。第二张是 ``out`` 的计算图：``SigmoidBackward0``
#       保存了它的结果 ``out``，取出时版本对不上，图中标为 “modified in place!”；
#       箭头指向叶子 ``a`` 的 ``AccumulateGrad``。
#
#    .. tab-item:: English
#       :sync: en
#
#       The two pictures below are drawn at build time by ``doctensor.viz``. First: ``out``
#       and ``c`` read one storage, all zeros now, and both are at version 1. Second, the
#       graph of ``out``: ``SigmoidBackward0`` saved its result ``out``, whose version no
#       longer matches, so the picture marks it "modified in place!"; the arrow leads on to
#       the ``AccumulateGrad`` of the leaf ``a``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("out", out), ("c = out.detach()", c))

# %%

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(out, params={"a": a}, name="out")

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **通过 .data 修改：没有被发现。** 同样的操作换成 ``c = out.data``。``.data``
#       的结果有自己的版本计数器，``c.zero_()`` 之后 ``out`` 的版本仍是 0，
#       反向传播照常进行，却用清零后的 ``out`` 算出了全 0 的梯度。作为对照，
#       我们在一个新张量上算出正确的梯度 :math:`\sigma(a)(1 - \sigma(a))`。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Editing through .data: not caught.** The same steps with ``c = out.data``. The
#       result of ``.data`` has its own version counter, so after ``c.zero_()`` the version
#       of ``out`` is still 0; backward runs as if nothing happened, and computes an all-zero
#       gradient from the zeroed ``out``. For comparison we compute the correct gradient
#       :math:`\sigma(a)(1 - \sigma(a))` on a fresh tensor.

a = torch.tensor([1, 2, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.data
print(c.zero_())
print(out)
print(out._version)
out.sum().backward()
print(a.grad)

fresh = torch.tensor([1, 2, 3.0], requires_grad=True)
fresh.sigmoid().sum().backward()
print(fresh.grad)

# %%
# .. expected-output::
#
#    tensor([0., 0., 0.])
#    tensor([0., 0., 0.], grad_fn=<SigmoidBackward0>)
#    0
#    tensor([0., 0., 0.])
#    tensor([0.1966, 0.1050, 0.0452])
#
# .. erratum:: SigmoidBackward 现名 SigmoidBackward0 / SigmoidBackward is now SigmoidBackward0
#    :article: Tensor.data与Tensor.detach()的区别
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          梯度同样是错误的全 0，与原文一致；只有节点名变了：PyTorch 2.13 显示
#          ``SigmoidBackward0``。
#
#       .. tab-item:: English
#          :sync: en
#
#          The gradient is the same wrong all-zero result as in the article; only the node's
#          name has changed: PyTorch 2.13 shows ``SigmoidBackward0``.
#
#    原文输出 / The article printed::
#
#       tensor([0., 0., 0.])
#       tensor([0., 0., 0.], grad_fn=<SigmoidBackward>)
#       tensor([0., 0., 0.])
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([0., 0., 0.])
#       tensor([0., 0., 0.], grad_fn=<SigmoidBackward0>)
#       0
#       tensor([0., 0., 0.])
#       tensor([0.1966, 0.1050, 0.0452])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **相同之处与不同之处。** 两者都不需要梯度，也都与 ``t`` 共享内存。区别在版本计数器：
#       通过 ``t2 = t.detach()`` 原地加 1，``t`` 和 ``t2`` 的版本一起变成 1；
#       通过 ``t3 = t.data`` 原地加 1，只有 ``t3`` 自己的计数器增加，``t`` 的版本不变。
#       两次修改都写进了同一块内存，所以 ``t`` 最后是 ``[2., 3.]``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **What is the same and what is not.** Neither requires grad, and both share ``t``'s
#       memory. The difference is the version counter: adding 1 in place through
#       ``t2 = t.detach()`` moves the version of ``t`` and ``t2`` together to 1; adding 1
#       through ``t3 = t.data`` bumps only ``t3``'s own counter and leaves ``t``'s version
#       alone. Both edits land in the same memory, so ``t`` ends as ``[2., 3.]``.

t = torch.tensor([0.0, 1.0], requires_grad=True)
t2 = t.detach()
t3 = t.data
print(t2.requires_grad, t3.requires_grad)
print(t2.data_ptr() == t.data_ptr(), t3.data_ptr() == t.data_ptr())

t2.add_(1)
print(t._version, t2._version, t3._version)

# %%
# .. expected-output::
#
#    False False
#    True True
#    1 1 0
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下图由 ``doctensor.viz.draw_storage`` 在构建时画出，是此刻（``t2.add_(1)`` 之后）的样子：
#       三个张量读同一块存储，格中已是 ``[1., 2.]``；``t`` 和 ``t2`` 的版本是 1，
#       ``t3`` 仍是 0。同一块内存，两个版本计数器。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below, drawn at build time by ``doctensor.viz.draw_storage``, shows this
#       moment (after ``t2.add_(1)``): the three tensors read one storage, which already holds
#       ``[1., 2.]``; ``t`` and ``t2`` are at version 1, ``t3`` is still at 0. One memory, two
#       version counters.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("t", t), ("t2 = t.detach()", t2), ("t3 = t.data", t3))

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       再通过 ``t3`` 原地加 1：只有 ``t3`` 自己的计数器从 0 变成 1，``t`` 和 ``t2``
#       的版本仍是 1；数据却写进了同一块内存，``t`` 变成 ``[2., 3.]``。
#
#    .. tab-item:: English
#       :sync: en
#
#       Then add 1 in place through ``t3``: only ``t3``'s own counter moves, from 0 to 1, and
#       ``t`` and ``t2`` stay at version 1; the data, though, lands in the same memory, and
#       ``t`` becomes ``[2., 3.]``.

t3.add_(1)
print(t._version, t2._version, t3._version)
print(t)

# %%
# .. expected-output::
#
#    1 1 1
#    tensor([2., 3.], requires_grad=True)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结**
#
#       .. list-table::
#          :header-rows: 1
#
#          * -
#            - ``x.detach()``
#            - ``x.data``
#          * - 共享内存
#            - 是
#            - 是
#          * - 需要梯度
#            - 否
#            - 否
#          * - 共享版本计数器
#            - 是
#            - 否
#          * - 原地修改破坏反向传播时
#            - 报错
#            - 静默地给出错误梯度
#
#       所以应当用 ``detach()``：它不能阻止所有误用，但能让 autograd 发现其中会算错梯度的那些。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary**
#
#       .. list-table::
#          :header-rows: 1
#
#          * -
#            - ``x.detach()``
#            - ``x.data``
#          * - shares memory
#            - yes
#            - yes
#          * - requires grad
#            - no
#            - no
#          * - shares the version counter
#            - yes
#            - no
#          * - an in-place edit that breaks backward
#            - raises an error
#            - silently gives a wrong gradient
#
#       So use ``detach()``: it cannot stop every misuse, but it lets autograd catch the
#       ones that would compute a wrong gradient.

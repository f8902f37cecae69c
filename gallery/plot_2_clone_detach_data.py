"""
clone()、detach()、.data 与 detach_() / clone(), detach(), .data and detach_()
==============================================================================

.. question:: .data 和 detach_() 与 clone()、detach() 有什么不同？ /
   How do .data and detach_() differ from clone() and detach()?

.. container:: dt-zh

   参考文章《PyTorch中clone()、detach()及相关扩展详解》（Python技术站）；
   文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the article ":zh:`PyTorch中clone()、detach()及相关扩展详解`" (:zh:`Python技术站`);
   every example is re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      这篇文章依次介绍 ``clone()``、``detach()``，以及两个相关的工具：``.data`` 属性和
      原地版本 ``detach_()``。原文的随机数没有固定种子，本页在每个例子前调用
      ``torch.manual_seed(0)``，所以随机数值与原文不同，但可以逐位核对。原文有几处输出
      不可能出现、有几处说法与 PyTorch 2.13 不符，下面逐一用勘误框说明。

   .. tab-item:: English
      :sync: en

      The article walks through ``clone()`` and ``detach()``, then two related tools: the
      ``.data`` attribute and the in-place ``detach_()``. Its random numbers are drawn without
      a seed; this page calls ``torch.manual_seed(0)`` before each example, so the random
      values differ from the article's but can be checked digit for digit. A few of the
      article's outputs cannot happen and a few of its statements do not hold in PyTorch
      2.13; the erratum boxes below explain each one.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **clone()：一份独立的副本。** 改动克隆结果的一个元素，源张量保持不变。
#
#    .. tab-item:: English
#       :sync: en
#
#       **clone(): an independent copy.** Changing one element of the clone leaves the source
#       as it was.

import doctensor as torch
from doctensor.viz import draw_storage

torch.manual_seed(0)
x = torch.rand(2, 3)
y = x.clone()
y[0, 0] = 0.5
print(x)
print(y)

# %%
# .. expected-output::
#
#    tensor([[0.4963, 0.7682, 0.0885],
#            [0.1320, 0.3074, 0.6341]])
#    tensor([[0.5000, 0.7682, 0.0885],
#            [0.1320, 0.3074, 0.6341]])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       原文一方面说 ``clone()`` 是深拷贝，另一方面又说它“可以避免深拷贝所带来的性能开销”。
#       这两句话互相矛盾，我们看一看数据指针：
#
#    .. tab-item:: English
#       :sync: en
#
#       The article calls ``clone()`` a deep copy, and also says it "avoids the cost of a
#       deep copy". The two statements contradict each other; the data pointers settle it:

print("shares memory:", x.data_ptr() == y.data_ptr())

# %%
# .. expected-output::
#
#    shares memory: False
#
# .. erratum:: clone() 就是复制 / clone() is a copy
#    :article: PyTorch中clone()、detach()及相关扩展详解 (Python技术站)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          ``clone()`` 会分配一块新内存并把全部数据复制过去，开销与数据量成正比，
#          它并不能省下复制的成本。想避免复制而又脱离计算图，应使用 ``detach()``，
#          它与源张量共享内存。
#
#       .. tab-item:: English
#          :sync: en
#
#          ``clone()`` allocates new memory and copies all the data into it, at a cost that
#          grows with the data; it saves no copying at all. To leave the graph without
#          copying, use ``detach()``, which shares the source's memory.
#
#    原文写道 / The article wrote::
#
#       使用 clone() 可以避免深拷贝所带来的性能开销。
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       shares memory: False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **detach()：脱离计算图，但共享内存。** 一个全 1 的张量 ``w`` 交给 SGD 优化器，
#       损失是 ``(x + w).sum()``。损失对 ``w`` 每个元素的梯度都是 1，与 ``x`` 无关，
#       所以学习率 0.1 走一步后每个元素都变成 0.9。随后把 ``w.detach()`` 的第一个元素改成 0.5：
#       分离出的张量不再需要梯度，但它与 ``w`` 共用内存，所以 ``w`` 本身也变了；
#       已经算好的梯度 ``w.grad`` 不受影响。
#
#    .. tab-item:: English
#       :sync: en
#
#       **detach(): off the graph, same memory.** A tensor of ones ``w`` is handed to an SGD
#       optimizer, with loss ``(x + w).sum()``. The gradient of that loss is 1 for every
#       element of ``w``, whatever ``x`` holds, so one step with learning rate 0.1 turns every
#       element into 0.9. Then the first element of ``w.detach()`` is set to 0.5: the detached
#       tensor requires no grad, but it shares ``w``'s memory, so ``w`` itself changes too;
#       the gradient already computed, ``w.grad``, is untouched.

torch.manual_seed(0)
x = torch.rand(2, 3)
w = torch.ones(2, 3, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)

loss = (x + w).sum()
loss.backward()
optimizer.step()
print(w)

w_detached = w.detach()
w_detached[0, 0] = 0.5
print(w_detached)
print(w)
print(w.grad)

# %%
# .. expected-output::
#
#    tensor([[0.9000, 0.9000, 0.9000],
#            [0.9000, 0.9000, 0.9000]], requires_grad=True)
#    tensor([[0.5000, 0.9000, 0.9000],
#            [0.9000, 0.9000, 0.9000]])
#    tensor([[0.5000, 0.9000, 0.9000],
#            [0.9000, 0.9000, 0.9000]], requires_grad=True)
#    tensor([[1., 1., 1.],
#            [1., 1., 1.]])
#
# .. erratum:: 一步 SGD 之后应当全是 0.9 / One SGD step gives 0.9 everywhere
#    :article: PyTorch中clone()、detach()及相关扩展详解 (Python技术站)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文打印的数值不可能出现。``(x + y).sum()`` 对 ``y`` 的梯度处处为 1，
#          无论 ``x`` 是什么随机数；从全 1 出发，学习率 0.1 走一步，每个元素都是
#          1 - 0.1 × 1 = 0.9。原文的数值看起来像另一次运行中的随机数，而不是这段代码的结果。
#
#       .. tab-item:: English
#          :sync: en
#
#          The values the article prints cannot happen. The gradient of ``(x + y).sum()``
#          with respect to ``y`` is 1 everywhere, whatever random numbers ``x`` holds;
#          starting from ones, one step with learning rate 0.1 gives 1 - 0.1 × 1 = 0.9 in
#          every element. The article's numbers look like random values from some other run,
#          not the result of this code.
#
#    原文输出 / The article printed::
#
#       tensor([[0.8215, 1.3643, 1.2602],
#               [1.1125, 1.4065, 1.1799]], requires_grad=True)
#       tensor([[0.5000, 1.3643, 1.2602],
#               [1.1125, 1.4065, 1.1799]])
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([[0.9000, 0.9000, 0.9000],
#               [0.9000, 0.9000, 0.9000]], requires_grad=True)
#       tensor([[0.5000, 0.9000, 0.9000],
#               [0.9000, 0.9000, 0.9000]])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下图由 ``doctensor.viz.draw_storage`` 在构建时根据上面的 ``w`` 和 ``w_detached``
#       画出：两者读同一块 6 个格子的存储，形状、步长、偏移都相同，
#       格子 0 里是写入的 0.5。它们共用一个版本计数器，版本都是 2：
#       ``optimizer.step()`` 原地更新一次，``w_detached[0, 0] = 0.5`` 又一次。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below is drawn at build time by ``doctensor.viz.draw_storage`` from the
#       ``w`` and ``w_detached`` above: both read the same storage of 6 cells, with the same
#       shape, stride and offset, and cell 0 holds the 0.5 written into it. They share one
#       version counter, at 2: one in-place update by ``optimizer.step()``, one by
#       ``w_detached[0, 0] = 0.5``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("w", w), ("w_detached = w.detach()", w_detached))

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **.data：绕过 autograd 的别名。** ``x.data`` 与 ``x`` 共享内存，且不需要梯度；
#       通过它做的修改会直接出现在 ``x`` 里，而 autograd 完全察觉不到。这正是它危险的地方，
#       详见 :doc:`plot_4_data_vs_detach`。通常应改用 ``detach()``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **.data: an alias that autograd does not see.** ``x.data`` shares ``x``'s memory and
#       requires no grad; edits made through it show up in ``x`` at once, and autograd cannot
#       notice them. That is what makes it dangerous, see :doc:`plot_4_data_vs_detach`.
#       Prefer ``detach()`` in ordinary code.

torch.manual_seed(0)
x = torch.rand(2, 3, requires_grad=True)
y = x.data
y[0, 0] = 0.5
print(x)
print(y)
print(x.data_ptr() == y.data_ptr(), y.requires_grad)

# %%
# .. expected-output::
#
#    tensor([[0.5000, 0.7682, 0.0885],
#            [0.1320, 0.3074, 0.6341]], requires_grad=True)
#    tensor([[0.5000, 0.7682, 0.0885],
#            [0.1320, 0.3074, 0.6341]])
#    True False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **detach_()：原地分离。** ``detach_()`` 不创建新张量，而是让 ``w`` 自己脱离计算图。
#       与上面的 ``detach()`` 例子相同，一步 SGD 之后 ``w`` 全是 0.9；分离之后，
#       ``w`` 不再需要梯度，打印时也就不再带 ``requires_grad=True``。
#
#    .. tab-item:: English
#       :sync: en
#
#       **detach_(): detaching in place.** ``detach_()`` creates no new tensor; it takes
#       ``w`` itself off the graph. As in the ``detach()`` example above, one SGD step leaves
#       ``w`` at 0.9 everywhere; once detached, ``w`` no longer requires grad, so its repr
#       no longer ends in ``requires_grad=True``.

torch.manual_seed(0)
x = torch.rand(2, 3, requires_grad=True)
w = torch.ones(2, 3, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)

loss = (x + w).sum()
loss.backward()
optimizer.step()
print(w)

w.detach_()
w[0, 0] = 0.5
print(w)

# %%
# .. expected-output::
#
#    tensor([[0.9000, 0.9000, 0.9000],
#            [0.9000, 0.9000, 0.9000]], requires_grad=True)
#    tensor([[0.5000, 0.9000, 0.9000],
#            [0.9000, 0.9000, 0.9000]])
#
# .. erratum:: detach_() 之后不再需要梯度 / After detach_() the tensor requires no grad
#    :article: PyTorch中clone()、detach()及相关扩展详解 (Python技术站)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文的两行输出都不可能出现。第一行：和 ``detach()`` 的例子一样，一步 SGD 之后
#          每个元素都是 0.9。第二行：``detach_()`` 把张量的 ``requires_grad`` 置为 ``False``，
#          之后的打印不会再带 ``requires_grad=True``。
#
#       .. tab-item:: English
#          :sync: en
#
#          Neither line of the article's output can happen. First line: as in the
#          ``detach()`` example, one SGD step makes every element 0.9. Second line:
#          ``detach_()`` sets the tensor's ``requires_grad`` to ``False``, so its repr no
#          longer ends in ``requires_grad=True``.
#
#    原文输出 / The article printed::
#
#       tensor([[0.3181, 1.0280, 1.5879],
#               [1.2681, 1.3820, 1.8077]], requires_grad=True)
#       tensor([[0.5000, 1.0280, 1.5879],
#               [1.2681, 1.3820, 1.8077]], requires_grad=True)
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([[0.9000, 0.9000, 0.9000],
#               [0.9000, 0.9000, 0.9000]], requires_grad=True)
#       tensor([[0.5000, 0.9000, 0.9000],
#               [0.9000, 0.9000, 0.9000]])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **detach_() 的返回值。** 原文说 ``detach_()`` “不会返回任何值，所以不能直接赋值给其他变量”。
#       我们检查一下它到底返回什么：
#
#    .. tab-item:: English
#       :sync: en
#
#       **What detach_() returns.** The article says ``detach_()`` "returns nothing, so it
#       cannot be assigned to another variable". Let us look at what it does return:

t = torch.ones(2, requires_grad=True)
returned = t.detach_()
print(returned is t)
print(returned)

# %%
# .. expected-output::
#
#    True
#    tensor([1., 1.])
#
# .. erratum:: detach_() 返回张量本身 / detach_() returns the tensor itself
#    :article: PyTorch中clone()、detach()及相关扩展详解 (Python技术站)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          和 PyTorch 中其他以下划线结尾的原地方法一样，``detach_()`` 返回被修改的张量本身，
#          所以 ``u = t.detach_()`` 完全可行，``u`` 和 ``t`` 是同一个对象。
#
#       .. tab-item:: English
#          :sync: en
#
#          Like every other in-place method of PyTorch (the names ending in an underscore),
#          ``detach_()`` returns the tensor it modified, so ``u = t.detach_()`` works fine, and
#          ``u`` and ``t`` are the same object.
#
#    原文写道 / The article wrote::
#
#       detach_() 函数……不会返回任何值,所以不能直接赋值给其他变量。
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       True
#       tensor([1., 1.])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结**
#
#       - ``clone()``：新内存、完整复制，仍在计算图中。
#       - ``detach()``：共享内存、脱离计算图；通过它的修改会改变源张量。
#       - ``.data``：同样共享内存、不需要梯度，但修改不会被 autograd 察觉，尽量不用。
#       - ``detach_()``：让张量自身原地脱离计算图，返回它自己。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary**
#
#       - ``clone()``: new memory, a full copy, still in the graph.
#       - ``detach()``: shared memory, off the graph; edits through it change the source.
#       - ``.data``: also shared memory and no grad, but autograd cannot see edits made
#         through it; avoid it.
#       - ``detach_()``: takes the tensor itself off the graph, in place, and returns it.

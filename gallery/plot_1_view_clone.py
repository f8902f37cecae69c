"""
view()、reshape() 与副本 / view(), reshape() and copies
=======================================================

.. question:: view() 和 reshape() 什么时候共享内存，什么时候复制？ /
   When do view() and reshape() share memory, and when do they copy?

.. container:: dt-zh

   参考文章《PyTorch中clone()、detach()及相关扩展详解》（编辑 jimmy，2025-01-12）的后半部分；
   文中每个例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the second half of the article ":zh:`PyTorch中clone()、detach()及相关扩展详解`"
   (edited by jimmy, 2025-01-12); every example is re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      ``view()`` 只换一种方式解读同一块内存：形状变了，数据没有复制。想要一份真正独立的
      新形状副本，可以先 ``clone()`` 再 ``view()``。本页运行原文的这几个例子，并补充
      ``reshape()`` 何时复制、``y = x + y`` 何时分配新内存。原文的随机数没有固定种子，
      其数值对应种子 0，所以我们在每个例子前调用 ``torch.manual_seed(0)``。

   .. tab-item:: English
      :sync: en

      ``view()`` only reads the same memory in another way: the shape changes, no data is
      copied. For a truly independent copy in a new shape, ``clone()`` first and ``view()``
      after. This page runs the article's examples on this, and adds when ``reshape()``
      copies and when ``y = x + y`` allocates new memory. The article draws random numbers
      without a seed; its values are those of seed 0, so we call ``torch.manual_seed(0)``
      before each example.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **view() 共享数据。** ``y = x.view(4)`` 是 ``x`` 的一个一维视图。对 ``x`` 原地加 1
#       之后，``y`` 的四个元素也都加了 1。``y`` 是另一个 Python 对象，``id`` 不同，但数据指针相同。
#
#    .. tab-item:: English
#       :sync: en
#
#       **view() shares the data.** ``y = x.view(4)`` is a one-dimensional view of ``x``.
#       After adding 1 to ``x`` in place, all four elements of ``y`` have grown by 1 too.
#       ``y`` is another Python object with another ``id``, but the same data pointer.

import doctensor as torch
from doctensor.viz import draw_storage

torch.manual_seed(0)
x = torch.rand(2, 2)
y = x.view(4)
x += 1
print(x)
print(y)
print(id(x) == id(y))
print(x.data_ptr() == y.data_ptr())

# %%
# .. expected-output::
#
#    tensor([[1.4963, 1.7682],
#            [1.0885, 1.1320]])
#    tensor([1.4963, 1.7682, 1.0885, 1.1320])
#    False
#    True
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       下图由 ``doctensor.viz.draw_storage`` 在构建时根据这里的 ``x`` 和 ``y`` 画出。
#       最上面一行是存储本身：4 个 4 字节的格子，格中是数值，下面是格子的序号。
#       每个张量占一行色块，标出它读的格子；色块中的数字是张量自己按行优先顺序的第几个元素。
#       ``x`` 以形状 [2, 2]、步长 (2, 1) 读这 4 个格子，``y`` 以形状 [4]、步长 (1,) 读同样的
#       格子；两者的偏移都是 0，版本都是 1（``x += 1`` 这一次原地修改）。
#
#    .. tab-item:: English
#       :sync: en
#
#       The picture below is drawn at build time by ``doctensor.viz.draw_storage`` from this
#       ``x`` and ``y``. The top row is the storage itself: 4 cells of 4 bytes, each showing
#       its value, numbered underneath. Each tensor gets a row of coloured marks on the cells
#       it reads, numbered in the tensor's own row-major order. ``x`` reads the 4 cells as
#       shape [2, 2] with stride (2, 1), ``y`` reads the same cells as shape [4] with stride
#       (1,); both start at offset 0 and are at version 1 (the one in-place ``x += 1``).

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_storage(("x", x), ("y = x.view(4)", y))

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **先 clone() 再 view()：独立的副本。** ``x_cp = x.clone().view(4)`` 先复制出新内存，
#       再换形状。之后对 ``x`` 的修改不会影响 ``x_cp``：``x`` 变成 1.xxxx，``x_cp``
#       保持原来的随机数，而且它是一维的。原文打印了两个 ``id``，我们改为打印有意义的比较。
#
#    .. tab-item:: English
#       :sync: en
#
#       **clone() then view(): an independent copy.** ``x_cp = x.clone().view(4)`` copies
#       into new memory first and reshapes after. Later edits of ``x`` leave ``x_cp`` alone:
#       ``x`` becomes 1.xxxx while ``x_cp`` keeps the original random numbers, and it is
#       one-dimensional. The article printed two ``id`` values; we print the meaningful
#       comparisons instead.

torch.manual_seed(0)
x = torch.rand(2, 2)
x_cp = x.clone().view(4)
x += 1
print(id(x) == id(x_cp))
print(x.data_ptr() == x_cp.data_ptr())
print(x)
print(x_cp)

# %%
# .. expected-output::
#
#    False
#    False
#    tensor([[1.4963, 1.7682],
#            [1.0885, 1.1320]])
#    tensor([0.4963, 0.7682, 0.0885, 0.1320])
#
# .. erratum:: x 与 x_cp 的输出对调了 / The outputs of x and x_cp are swapped
#    :article: PyTorch中clone()、detach()及相关扩展详解 (jimmy)
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文的这段输出不可能出现，有三处问题：
#
#          - 加了 1 的是 ``x``，不是副本 ``x_cp``，原文把两者的输出对调了；
#          - ``view(4)`` 得到一维张量，打印时只有一层方括号，原文却显示了两层；
#          - 种子 0 之后 ``torch.rand(2, 2)`` 的四个数是 0.4963、0.7682、0.0885、0.1320，
#            原文漏掉了 0.0885，又多出了第五个数 0.3074。
#
#       .. tab-item:: English
#          :sync: en
#
#          The article's output cannot happen, for three reasons:
#
#          - the tensor that had 1 added is ``x``, not the copy ``x_cp``: the article swapped
#            the two outputs;
#          - ``view(4)`` gives a one-dimensional tensor, printed with one pair of brackets,
#            not the two the article shows;
#          - after seed 0 the four numbers of ``torch.rand(2, 2)`` are 0.4963, 0.7682, 0.0885
#            and 0.1320; the article drops 0.0885 and adds a fifth number, 0.3074.
#
#    原文输出 / The article printed::
#
#       tensor([[0.4963, 0.7682],
#        [0.1320, 0.3074]])
#       tensor([[1.4963, 1.7682, 1.1320, 1.3074]])
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       tensor([[1.4963, 1.7682],
#               [1.0885, 1.1320]])
#       tensor([0.4963, 0.7682, 0.0885, 0.1320])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **reshape() 可能是视图，也可能是副本。** 原文提醒，``reshape()`` 不保证返回副本。
#       事实上，内存布局允许时它返回视图（与源张量共享数据），否则才复制。连续的张量换形状得到视图；
#       转置后的张量无法用一组步长读成一维，只能复制。
#
#    .. tab-item:: English
#       :sync: en
#
#       **reshape() may be a view or a copy.** The article warns that ``reshape()`` does not
#       promise a copy. In fact it returns a view (sharing the source's data) whenever the
#       memory layout allows, and copies otherwise. A contiguous tensor reshapes into a view;
#       a transposed one cannot be read as one dimension with a single stride, so it is
#       copied.

x = torch.arange(6.0).view(2, 3)
as_view = x.reshape(3, 2)
as_copy = x.t().reshape(6)
print(as_view.data_ptr() == x.data_ptr())
print(as_copy.data_ptr() == x.data_ptr())

# %%
# .. expected-output::
#
#    True
#    False
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **y = x + y 会分配新内存。** 原文最后提到，``y = x + y`` 先算出一个新张量，
#       再让名字 ``y`` 指向它，可以用 ``id`` 验证。原地的 ``y += x`` 则写回原来的对象和内存。
#
#    .. tab-item:: English
#       :sync: en
#
#       **y = x + y allocates new memory.** The article ends by noting that ``y = x + y``
#       computes a new tensor and then points the name ``y`` at it, which ``id`` can confirm.
#       The in-place ``y += x`` writes back into the same object and memory.

x = torch.tensor([1.0, 2.0])
y = torch.tensor([3.0, 4.0])
before = id(y)
y = x + y
print(id(y) == before)

before, before_ptr = id(y), y.data_ptr()
y += x
print(id(y) == before, y.data_ptr() == before_ptr)
print(y)

# %%
# .. expected-output::
#
#    False
#    True True
#    tensor([5., 8.])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结：** ``view()`` 与源张量共享数据；``clone().view()`` 是独立副本；
#       ``reshape()`` 能返回视图时就返回视图；``y = x + y`` 产生新张量，``y += x`` 原地修改。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary:** ``view()`` shares data with its source; ``clone().view()`` is an
#       independent copy; ``reshape()`` returns a view whenever it can; ``y = x + y`` makes a
#       new tensor while ``y += x`` edits in place.

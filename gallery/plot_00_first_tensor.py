"""
第一个张量 / A first tensor
===========================

.. question:: 本站的一段代码是怎样运行、又是怎样核对的？ /
   How does a code block of this site run, and how is it checked?

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      这一页很短：它演示本站每一页的写法。每段代码在构建时运行，其输出与代码后面记录的
      期望输出逐字比对。

   .. tab-item:: English
      :sync: en

      A short page that shows how every page of this site works: each code block runs when
      the site is built, and its output is compared, character for character, with the
      expected output recorded after it.
"""

# %%
import doctensor as torch
from doctensor.viz import draw_graph

a = torch.tensor([1.0, 2.0, 3.0])
print(a)
print(a.shape, a.dtype)

# %%
# .. expected-output::
#
#    tensor([1., 2., 3.])
#    torch.Size([3]) torch.float32
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       ``requires_grad=True`` 让 autograd 记录对 ``x`` 的运算；``backward()`` 沿记录的图
#       反向求导，把 :math:`\frac{dy}{dx} = 2x = 4` 存进 ``x.grad``。
#
#    .. tab-item:: English
#       :sync: en
#
#       ``requires_grad=True`` makes autograd record the operations on ``x``; ``backward()``
#       walks the recorded graph back and stores :math:`\frac{dy}{dx} = 2x = 4` in ``x.grad``.

x = torch.tensor(2.0, requires_grad=True)
y = x * x + 1
y.backward()
print(y)
print(x.grad)

# %%
# .. expected-output::
#
#    tensor(5., grad_fn=<AddBackward0>)
#    tensor(4.)
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       页面上的图也在构建时画出：下面是 ``y`` 的计算图，由 ``doctensor.viz.draw_graph``
#       根据真实的张量画出，箭头是梯度流动的方向：``AddBackward0`` → ``MulBackward0`` →
#       ``x`` 的 ``AccumulateGrad``。
#
#    .. tab-item:: English
#       :sync: en
#
#       The pictures on a page are drawn at build time too: below is the graph of ``y``,
#       drawn by ``doctensor.viz.draw_graph`` from the real tensors, with arrows in the
#       direction gradients flow: ``AddBackward0`` → ``MulBackward0`` → ``AccumulateGrad`` of
#       ``x``.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(y)

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       ``.cuda()`` 把张量拷贝到 GPU。没有 GPU 时，doctensor 在模拟的 CUDA 设备上运行这段代码
#       （页首注明了本站构建时用的设备）；用 PyTorch 核对时，没有 GPU 就跳过这一段。
#
#    .. tab-item:: English
#       :sync: en
#
#       ``.cuda()`` copies a tensor to the GPU. Without a GPU, doctensor runs this block on its
#       emulated CUDA device (the top of the page says which device built this site); the
#       check against PyTorch skips it where no GPU exists.

c = a.cuda()
print(c.device, c.is_cuda, c.data_ptr() == a.data_ptr())

# %%
# .. expected-output::
#    :requires: cuda
#
#    cuda:0 True False

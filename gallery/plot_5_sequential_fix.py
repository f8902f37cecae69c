"""
修好一个 nn.Sequential / Fixing an nn.Sequential
================================================

.. question:: 原文的 nn.Sequential 为什么不能运行，怎样修好？ /
   Why does the article's nn.Sequential not run, and how is it fixed?

.. container:: dt-zh

   参考文章《Pytorch》（一篇关于 ``detach()`` 与 GPU 的笔记）开头的网络定义；
   文中的例子都由我们重新编写成本页的脚本。

.. container:: dt-en

   Based on the network definition at the start of the article "Pytorch" (a note on ``detach()``
   and the GPU); its examples are re-typed here as our own script.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      原文开头给出了一个手写数字分类网络：先把 28×28 的图像展平，再经过三层全连接和 ReLU。
      可是这段代码无法运行：``nn.Sequential`` 的第一项是一个元组 ``(28*28, 512)``，
      而不是一个层。本页先让 PyTorch 告诉我们哪里错了，再给出修好的版本。
      本文关于 ``detach()`` 与 GPU 的部分见 :doc:`plot_5_detach_cuda`。

   .. tab-item:: English
      :sync: en

      The article opens with a network for handwritten digits: flatten the 28×28 image, then
      three fully connected layers with ReLUs. The code does not run, though: the first entry
      of its ``nn.Sequential`` is a tuple, ``(28*28, 512)``, not a layer. This page first lets
      PyTorch say what is wrong, then shows the fixed version. The article's part on
      ``detach()`` and the GPU is on :doc:`plot_5_detach_cuda`.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **原文的写法。** 类的定义本身没有问题，错误在创建网络时才出现：``nn.Sequential``
#       要求每一项都是 ``nn.Module``，遇到元组就抛出 ``TypeError``。我们捕获异常并打印它。
#
#    .. tab-item:: English
#       :sync: en
#
#       **As the article wrote it.** Defining the class is fine; the error appears when the
#       network is created: ``nn.Sequential`` wants every entry to be an ``nn.Module`` and
#       raises ``TypeError`` on the tuple. We catch the exception and print it.

import doctensor as torch
import doctensor.nn as nn
from doctensor.viz import draw_graph


class BrokenNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            (28 * 28, 512),  # a tuple, not a layer: this is the bug
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
            nn.ReLU(),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


try:
    BrokenNetwork()
except TypeError as e:
    print(f"{type(e).__name__}: {e}")

# %%
# .. expected-output::
#
#    TypeError: tuple is not a Module subclass
#
# .. erratum:: Sequential 里的元组 / A tuple inside Sequential
#    :article: Pytorch
#
#    .. tab-set::
#       :sync-group: lang
#
#       .. tab-item:: 中文
#          :sync: zh
#
#          原文的代码在创建网络时就会失败。第一项应当是 ``nn.Linear(28*28, 512)``，
#          原文漏掉了 ``nn.Linear``，只剩下它的参数元组。
#
#       .. tab-item:: English
#          :sync: en
#
#          The article's code fails as soon as the network is created. The first entry should
#          be ``nn.Linear(28*28, 512)``; the article lost the ``nn.Linear`` and kept only its
#          arguments as a tuple.
#
#    原文写道 / The article wrote::
#
#       self.linear_relu_stack = nn.Sequential(
#               (28*28, 512),
#           nn.ReLU(),
#           ...
#
#    PyTorch 2.13 输出 / PyTorch 2.13 prints::
#
#       TypeError: tuple is not a Module subclass
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **修好的网络。** 把元组换成 ``nn.Linear(28 * 28, 512)`` 就能创建网络了，打印它可以看到
#       每一层。我们设定种子 0，输入一张随机“图像”，确认输出是 1×10 的 logits。
#       原文在最后一个全连接层之后还接了一个 ``ReLU``，所以输出不会有负数；
#       通常 logits 不经过激活函数，这里为忠于原文保留了它。
#
#    .. tab-item:: English
#       :sync: en
#
#       **The fixed network.** With the tuple replaced by ``nn.Linear(28 * 28, 512)`` the
#       network can be created, and printing it lists every layer. We set seed 0 and feed one
#       random "image" to check that the output is a 1×10 tensor of logits. The article puts a
#       ``ReLU`` after the last linear layer too, so no output is negative; logits usually go
#       without an activation, but we keep it to stay with the article.


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
            nn.ReLU(),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


torch.manual_seed(0)
model = NeuralNetwork()
print(model)
print(sum(p.numel() for p in model.parameters()))

image = torch.rand(1, 28, 28)
logits = model(image)
print(logits.shape)
print(bool((logits >= 0).all()))

# %%
# .. expected-output::
#
#    NeuralNetwork(
#      (flatten): Flatten(start_dim=1, end_dim=-1)
#      (linear_relu_stack): Sequential(
#        (0): Linear(in_features=784, out_features=512, bias=True)
#        (1): ReLU()
#        (2): Linear(in_features=512, out_features=512, bias=True)
#        (3): ReLU()
#        (4): Linear(in_features=512, out_features=10, bias=True)
#        (5): ReLU()
#      )
#    )
#    669706
#    torch.Size([1, 10])
#    True
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **小结：** ``nn.Sequential`` 的每一项都必须是一个层（``nn.Module``）；参数个数
#       784×512 + 512 + 512×512 + 512 + 512×10 + 10 = 669706 也印证了三个全连接层都已就位。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Summary:** every entry of an ``nn.Sequential`` must be a layer (an ``nn.Module``);
#       the parameter count, 784×512 + 512 + 512×512 + 512 + 512×10 + 10 = 669706, confirms
#       that all three linear layers are in place.
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       最后是修好的网络为这张图像记录的计算图（``doctensor.viz.draw_graph`` 在构建时画出）：
#       每个全连接层是一个 ``AddmmBackward0``，权重先经过转置 ``TBackward0``，每个 ``ReLU``
#       是一个 ``ReluBackward0``；图像不需要梯度，所以图在第一层就停下了，只有六个参数是叶子。
#
#    .. tab-item:: English
#       :sync: en
#
#       Last, the graph the fixed network records for this image (drawn at build time by
#       ``doctensor.viz.draw_graph``): each linear layer is an ``AddmmBackward0`` whose weight
#       goes through a transpose, ``TBackward0``, and each ``ReLU`` is a ``ReluBackward0``; the
#       image needs no gradient, so the graph stops at the first layer and only the six
#       parameters are leaves.

# sphinx_gallery_capture_repr_block = ('_repr_html_',)
draw_graph(logits)

"""
字符级语言模型：LSTM 与因果自注意力 / A character-level language model: LSTM and causal attention
=================================================================================================

.. question:: 一个小 LSTM 和一个带因果掩码的小 Transformer，能学会模仿一段短文吗？ /
   Can a tiny LSTM and a tiny causal Transformer learn to imitate a short text?

.. container:: dt-zh

   这一页不来自某篇文章：它用来检验 doctensor 的循环层（``nn.LSTM``）和注意力层
   （``nn.TransformerEncoderLayer``、``nn.MultiheadAttention``）在真实训练中的表现。

.. container:: dt-en

   This page does not follow an article: it exercises doctensor's recurrent layer
   (``nn.LSTM``) and attention layers (``nn.TransformerEncoderLayer``,
   ``nn.MultiheadAttention``) in a real training run.

.. tab-set::
   :sync-group: lang

   .. tab-item:: 中文
      :sync: zh

      字符级语言模型读入一串字符，对每个位置给出“下一个字符”的概率分布。训练就是让真实的
      下一个字符得到更高的概率（交叉熵损失）；生成时，每次从这个分布里抽一个字符，接到
      文本末尾，再预测下一个。这里用同一段短文训练两个很小的模型：一个 LSTM 和一个单层
      Transformer，并比较训练前后抽样出的文本。整个脚本也在 PyTorch 2.13 下运行过，
      下面记录的输出两者相同。

   .. tab-item:: English
      :sync: en

      A character-level language model reads a string of characters and gives, at every
      position, a probability distribution over the next character. Training raises the
      probability of the character that really comes next (the cross-entropy loss);
      generating draws one character from that distribution, appends it to the text and
      predicts again. Two tiny models learn the same short text here, an LSTM and a
      one-layer Transformer, and we compare the text they sample before and after training.
      The whole script also runs under PyTorch 2.13; the outputs recorded below are the
      same under both.
"""

# %%
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **文本。** ``data/tiny_text.txt`` 是为本项目写的一段约 2.5 KB 的英文短文，讲张量、
#       视图和自动求导（路径相对于脚本所在的文件夹，示例就在那里运行）。词表就是文中出现过的
#       字符，每个字符对应一个下标，整段文本变成一个 ``int64`` 张量。
#
#    .. tab-item:: English
#       :sync: en
#
#       **The text.** ``data/tiny_text.txt`` is a short English text of about 2.5 KB written
#       for this project, on tensors, views and autograd (the path is relative to the
#       script's folder, where the example runs). The vocabulary is the set of characters
#       that occur in it; each character gets an index, and the whole text becomes one
#       ``int64`` tensor.

import textwrap
from pathlib import Path

import matplotlib.pyplot as plt

import doctensor as torch
import doctensor.nn as nn
import doctensor.nn.functional as F

text = Path("data/tiny_text.txt").read_text(encoding="utf-8")
chars = sorted(set(text))
index = {c: i for i, c in enumerate(chars)}
data = torch.tensor([index[c] for c in text])
print(len(text), "characters,", len(chars), "distinct:", repr("".join(chars)))
print(data[:12], data.dtype)

# %%
# .. expected-output::
#
#    2495 characters, 31 distinct: '\n ,.:_abcdefghiklmnopqrstuvwxyz'
#    tensor([ 6,  1, 24, 10, 18, 23, 19, 22,  1, 14, 23,  1]) torch.int64
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **两个模型。** 两者都先用 ``nn.Embedding`` 把字符下标变成向量，最后用 ``nn.Linear``
#       给出每个字符的 logits。中间不同：LSTM 从左到右逐个读字符，把读过的内容压进一个
#       隐状态，所以第 *t* 个输出天然只依赖前 *t* 个字符。自注意力则一次看到整个窗口，
#       所以要加因果掩码：``generate_square_subsequent_mask`` 生成一个上三角为
#       ``-inf`` 的方阵，加到注意力分数上，softmax 之后“未来”位置的权重为 0，模型就不能
#       偷看答案。自注意力本身不知道字符的顺序，所以再加一个可学习的位置嵌入。
#
#       模型用 ``float64``（``.double()``）训练。doctensor 的矩阵乘法用 OpenBLAS，PyTorch
#       用 MKL（LSTM 和注意力还有各自的融合内核），在 ``float32`` 下两者只在舍入误差内一致。
#       训练会放大这点差别：例如键（key）的偏置不影响 softmax 的结果，它的梯度只是舍入噪声，
#       而 Adam 会把噪声放大成整步的更新。在 ``float32`` 下，这里的 Transformer 到第 50 步
#       损失的第四位小数就不同了，抽样出的文字也随之分叉；在 ``float64`` 下参数的差别停留在
#       1e-14 左右，打印出的一切都相同。
#
#    .. tab-item:: English
#       :sync: en
#
#       **The two models.** Both turn character indices into vectors with ``nn.Embedding``
#       and end with an ``nn.Linear`` that gives a logit per character. In between they
#       differ. The LSTM reads the characters from left to right and folds what it has read
#       into a hidden state, so its *t*-th output depends only on the first *t* characters
#       by construction. Self-attention sees the whole window at once, so it needs a causal
#       mask: ``generate_square_subsequent_mask`` makes a square matrix with ``-inf`` above
#       the diagonal; added to the attention scores, it gives the future positions weight 0
#       after the softmax, and the model cannot peek at the answer. Attention alone does not
#       know the order of the characters, hence a learned position embedding.
#
#       The models train in ``float64`` (``.double()``). doctensor multiplies matrices with
#       OpenBLAS and PyTorch with MKL (and has fused kernels for the LSTM and for attention),
#       so in ``float32`` the two agree only to rounding. Training amplifies that: the key
#       bias, for one, does not change the softmax, so its gradient is pure rounding noise,
#       which Adam scales up to full-size steps. In ``float32`` the Transformer's losses
#       here differ in the fourth decimal by step 50 and the sampled texts part ways; in
#       ``float64`` the parameters stay within about 1e-14 of each other, and everything
#       printed is the same.

block, batch = 24, 16


class CharLSTM(nn.Module):
    def __init__(self, vocab, embed=32, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, idx):
        out, _ = self.lstm(self.embed(idx))
        return self.head(out)


class CharTransformer(nn.Module):
    def __init__(self, vocab, d_model=64, heads=4, feedforward=128):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.position = nn.Embedding(block, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, heads, feedforward, dropout=0.0,
                                                batch_first=True)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, idx):
        n = idx.size(1)
        x = self.embed(idx) + self.position(torch.arange(n))
        mask = nn.Transformer.generate_square_subsequent_mask(n, dtype=torch.float64)
        return self.head(self.layer(x, src_mask=mask))


torch.manual_seed(0)
lstm = CharLSTM(len(chars)).double()
transformer = CharTransformer(len(chars)).double()
for model in (lstm, transformer):
    print(type(model).__name__, sum(p.numel() for p in model.parameters()), "parameters")
print(nn.Transformer.generate_square_subsequent_mask(4))

# %%
# .. expected-output::
#
#    CharLSTM 28095 parameters
#    CharTransformer 39007 parameters
#    tensor([[0., -inf, -inf, -inf],
#            [0., 0., -inf, -inf],
#            [0., 0., 0., -inf],
#            [0., 0., 0., 0.]])
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **抽样。** 模型给出最后一个位置的 logits，除以温度（小于 1 时分布更尖）后用
#       softmax 变成概率。``torch.multinomial(probs, 1)`` 按这些概率抽一个下标：概率为
#       0.3 的字符大约有 30% 的机会被选中，所以同一个模型每次可以写出不同的文字（种子固定时
#       结果可以复现）。整个循环在 ``torch.no_grad()`` 下运行，不记录计算图。
#       训练之前，权重是随机的，每个字符的概率都差不多，所以抽出来的只是噪声。
#       模型每次重读最后 24 个字符（位置嵌入只认识 24 个位置）。``show`` 只是把过长的行
#       折到 80 列再打印。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Sampling.** The model's logits at the last position are divided by a temperature
#       (below 1 sharpens the distribution) and turned into probabilities by a softmax.
#       ``torch.multinomial(probs, 1)`` draws one index with these probabilities: a
#       character of probability 0.3 is picked about 30% of the time, so the same model can
#       write a different text each time (reproducibly, with a fixed seed). The loop runs
#       under ``torch.no_grad()``, recording no graph. Before training the weights are random
#       and every character is about equally likely, so the samples are noise. The model
#       re-reads the last 24 characters each time (the position embedding knows 24
#       positions); ``show`` only wraps long lines at 80 columns for printing.


def generate(model, prompt, length, temperature=0.8):
    idx = torch.tensor([[index[c] for c in prompt]])
    with torch.no_grad():
        for _ in range(length):
            logits = model(idx[:, -block:])[:, -1, :]
            probs = F.softmax(logits / temperature, dim=-1)
            next_idx = torch.multinomial(probs, 1)
            idx = torch.cat([idx, next_idx], dim=1)
    return "".join(chars[i] for i in idx[0].tolist())


def show(sample, width=80):
    for line in sample.split("\n"):
        print(textwrap.fill(line, width))


for model in (lstm, transformer):
    print(f"{type(model).__name__}, before training:")
    show(generate(model, "a tensor ", 60))

# %%
# .. expected-output::
#
#    CharLSTM, before training:
#    a tensor dn_ngnxsogwmush_eynhzqakn_vfhvi:royly,k,cgxmqgauvvdybbrl vph
#    CharTransformer, before training:
#    a tensor fk::oxe,p_xdciam:,iyvgc::
#    ,lwd:rego:ivsfv:ds::koyq:wpw,
#    syie
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **训练 LSTM。** 每一步从文本中随机取 16 段长 24 的片段 ``x``，目标 ``y`` 是
#       向右错一位的同一段文字；交叉熵把 (16, 24, 31) 的 logits 摊平成 384 个预测。
#       优化器是 Adam。一开始的损失接近 :math:`\ln 31 \approx 3.43`，即在 31 个字符中
#       均匀猜测。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Training the LSTM.** Each step takes 16 random pieces ``x`` of 24 characters; the
#       target ``y`` is the same text shifted by one. The cross-entropy flattens the
#       (16, 24, 31) logits into 384 predictions. The optimizer is Adam. The first loss is
#       close to :math:`\ln 31 \approx 3.43`, a uniform guess among 31 characters.


def get_batch():
    starts = torch.randint(len(data) - block, (batch,)).tolist()
    x = torch.stack([data[s:s + block] for s in starts])
    y = torch.stack([data[s + 1:s + block + 1] for s in starts])
    return x, y


def train(model, steps, lr):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    losses = []
    for step in range(1, steps + 1):
        x, y = get_batch()
        loss = F.cross_entropy(model(x).reshape(-1, len(chars)), y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step == 1 or step % 50 == 0:
            print(f"step {step:3d}  loss {loss.item():.4f}")
    return losses


lstm_losses = train(lstm, 200, lr=0.01)
print("LSTM, after training:")
show(generate(lstm, "a tensor ", 160))

# %%
# .. expected-output::
#
#    step   1  loss 3.4284
#    step  50  loss 1.9521
#    step 100  loss 1.4777
#    step 150  loss 1.1153
#    step 200  loss 0.8911
#    LSTM, after training:
#    a tensor is and to cwides af it learns how in a nodes.
#    at it was cappes a view in.
#    the step a saved.
#
#    when you trides.
#    the next keeps a grad of it a memory if storage ch
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **训练 Transformer。** 同样的循环，只是学习率小一些。有了掩码，一次前向就同时
#       训练全部 24 个位置，不必像 LSTM 那样一个字符一个字符地展开。
#
#    .. tab-item:: English
#       :sync: en
#
#       **Training the Transformer.** The same loop, with a smaller learning rate. Thanks to
#       the mask, one forward pass trains all 24 positions at once, with no character by
#       character unrolling as in the LSTM.

transformer_losses = train(transformer, 300, lr=0.005)
print("Transformer, after training:")
show(generate(transformer, "a tensor ", 160))

# %%
# .. expected-output::
#
#    step   1  loss 3.5991
#    step  50  loss 2.3514
#    step 100  loss 2.1185
#    step 150  loss 2.0253
#    step 200  loss 1.8049
#    step 250  loss 1.5957
#    step 300  loss 1.4036
#    Transformer, after training:
#    a tensor the says up the reach re ing eace.
#    a mensiores of of ter yous grad rad wts a saved sto same spou whens the nodel go
#    is a lealloat le ing inses of wridef of in o
#
# .. tab-set::
#    :sync-group: lang
#
#    .. tab-item:: 中文
#       :sync: zh
#
#       **结果。** 训练之后，两个模型都学会了空格、换行、句号和许多常见的短词，但句子
#       并没有意义：它们学到的只是文字的“样子”。在这样的规模和步数下，LSTM 学得更快，
#       写出的完整单词更多；它的损失低于 1，说明它已经在部分地背诵这段只有 2.5 KB 的文本。
#       下图是每一步的训练损失（每一步的批次不同，所以曲线有起伏）。
#
#    .. tab-item:: English
#       :sync: en
#
#       **The result.** After training both models have learned spaces, line breaks, full
#       stops and many short common words, but the sentences mean nothing: they have learned
#       how the text looks. At this size and with this few steps the LSTM learns faster and
#       writes more whole words; its loss below 1 says that it already partly recites a text
#       of only 2.5 KB. The plot shows the training loss of every step (each step draws a
#       different batch, hence the wiggles).

fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(lstm_losses, label="LSTM")
ax.plot(transformer_losses, label="Transformer (causal mask)")
ax.set(xlabel="step", ylabel="training loss", title="character-level language models")
ax.legend()
fig.tight_layout()
plt.show()

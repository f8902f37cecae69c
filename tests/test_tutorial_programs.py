"""Whole teaching programs run under doctensor and under torch 2.13, compared: the shapes of
PyTorch's own tutorials (the 60-minute blitz's LeNet on a random batch, a CNN with batch
norm and average pooling trained from a DataLoader, a regression trained with Adam)."""

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import same_outcome


def lenet(T):
    """The blitz's Net: conv -> relu -> max_pool twice, then three Linear layers."""
    nn, F = T.nn, T.nn.functional

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            self.fc1 = nn.Linear(16 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            x = T.flatten(x, 1)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    T.manual_seed(0)
    net = Net()
    params = list(net.parameters())
    x = T.randn(1, 1, 32, 32)
    out = net(x)
    net.zero_grad()
    out.backward(T.randn(1, 10))
    target = T.randn(10).view(1, -1)
    loss = nn.MSELoss()(net(x), target)
    chain = [loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name()]
    optimizer = T.optim.SGD(net.parameters(), lr=0.01)
    for _ in range(3):
        optimizer.zero_grad()
        loss = nn.MSELoss()(net(x), target)
        loss.backward()
        optimizer.step()
    return [repr(net), len(params), params[0].size(), out.shape, chain, loss.item(),
            net.conv1.bias.grad]


def cnn_with_loader(T):
    nn = T.nn
    T.manual_seed(0)
    images, labels = T.randn(20, 3, 8, 8), T.randint(0, 4, (20,))
    loader = T.utils.data.DataLoader(T.utils.data.TensorDataset(images, labels), batch_size=6,
                                     shuffle=True)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                          nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Dropout(0.2),
                          nn.Linear(8, 4))
    optimizer = T.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    losses = []
    for _ in range(2):
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    model.eval()
    with T.no_grad():
        correct = (model(images).argmax(1) == labels).sum().item()
    return losses, correct, model[1].running_mean, T.rand(2)


def regression_with_adam(T):
    T.manual_seed(0)
    x = T.linspace(-1, 1, 50).unsqueeze(1)
    y = 3 * x.pow(2) - x + 0.1 * T.randn(50, 1)
    model = T.nn.Sequential(T.nn.Linear(1, 16), T.nn.Tanh(), T.nn.Linear(16, 1))
    optimizer = T.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(30):
        optimizer.zero_grad()
        loss = T.nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item(), model[0].weight.grad


@pytest.mark.parametrize("program", [lenet, cnn_with_loader, regression_with_adam],
                         ids=lambda f: f.__name__)
def test_program_runs_like_torch(program):
    same_outcome(program, rtol=2e-4, atol=2e-5, reprs=False)

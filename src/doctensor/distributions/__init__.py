"""``torch.distributions``: probability distributions written against doctensor's public
API, as a user would write them."""

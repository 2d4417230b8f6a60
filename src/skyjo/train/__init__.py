"""Training a Skyjo agent: `skyjo train` (docs/env.md, docs/model-card.md).

Needs PyTorch: `pip install 'skyjo[train]'`. Nothing that plays imports this
package; the `learned` bot reads the policy file it writes with NumPy
(`skyjo.train.policy_file` is NumPy only too).
"""

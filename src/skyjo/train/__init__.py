"""Training the `best` bot's learned value: `skyjo train` (docs/model-card.md).

Needs PyTorch: `pip install 'skyjo[train]'`. Nothing that plays imports this
package; the `best` bot reads the value file it writes with NumPy and the
kernel (`skyjo.kernel.value`).
"""

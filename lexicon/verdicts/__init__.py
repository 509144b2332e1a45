"""Verdicts: is a word, a batch of words or a whole play valid, and why (not).

The explaining checker, the batch hot path, a play's ruling (and Remik's moves), and the
referee's log of rulings. Built on the game model and the store.
"""

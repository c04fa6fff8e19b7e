"""What finished play leaves: a match's record and each deal's replay (``replay``), reviews of finished
deals (``review``), each person's results (``results``, counted per game by ``fronts``).
"""

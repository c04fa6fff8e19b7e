"""The tables in play: a table and everything that moves it along.

``table`` (one match, its seats and sockets, what each is shown), ``manager`` (makes, finds, loads and
forgets the tables of this process), ``moves`` (a move checked, stored, applied, shown, acknowledged),
``seats`` (seats taken, tokens, sockets attached), ``following`` (other processes' changes), ``driver``
(each live table's one task: computer players, the clock, stand-ins), ``thinking`` (where computer players
decide), ``claims`` (one-time seat links), ``again`` (play again), ``hints``, ``lobby`` (the public
listing).  The helpers reach the manager only through ``protocols.Tables``.
"""

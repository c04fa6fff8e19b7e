"""What is kept of finished play: records and replays, reviews of finished deals, each person's results.
"""

"""The play log and what is read out of it: plays, sessions, statistics, exports."""

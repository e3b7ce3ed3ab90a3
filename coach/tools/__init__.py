"""The program tools, one module per family; ``coach.registry`` collects their specs."""

"""``with Threads(n):``: minigrad's thread count is n inside, restored after (the big-array
tests run each kernel on 1, 2 and 3 threads)."""

import minigrad as mg


class Threads:
    def __init__(self, count):
        self.count = count

    def __enter__(self):
        self.previous = mg.get_num_threads()
        mg.set_num_threads(self.count)

    def __exit__(self, *exc):
        mg.set_num_threads(self.previous)

"""The search cache: repeated calls share work, within a bound, with the same results."""

from __future__ import annotations

import itertools
import threading

import pytest

import nimlab
from nimlab import game
from nimlab.core.errors import SearchTooLargeError
from nimlab.engine.search import SearchCache, Solver


def test_repeated_calls_share_one_memo_and_agree_with_fresh_searches() -> None:
    g = game("single-delete")
    cache = SearchCache()
    ps = list(itertools.combinations_with_replacement(range(1, 8), 4))
    shared = [Solver(g, cache=cache).is_p(p, method="search") for p in ps]
    fresh = [Solver(g).is_p(p, method="search") for p in ps]
    assert shared == fresh
    # every 4-heap multiset of heaps 1..7 was solved once and kept
    assert cache.positions() == len(ps)
    # all in one memo: a second loop adds nothing
    again = [Solver(g, cache=cache).is_p(p, method="search") for p in ps]
    assert again == fresh and cache.positions() == len(ps)


def test_public_calls_use_the_process_cache() -> None:
    g = game("subtraction", S={2, 5, 11})
    nimlab.search_cache().clear()
    assert nimlab.grundy(g, 60, method="search") == Solver(g).grundy((60,), method="search")
    assert nimlab.search_cache().positions() >= 50  # 0..60 but 57 and 59
    # answered from the cache: no new position stored, so any budget suffices
    assert nimlab.grundy(g, 58, method="search", max_positions=1) == Solver(g).grundy(
        (58,), method="search"
    )


def test_budget_counts_only_the_positions_a_call_adds() -> None:
    g = game("subtraction", S={1, 3})
    cache = SearchCache()
    Solver(g, cache=cache).grundy((40,), method="search")
    # heaps 41..45 are new: 5 positions fit a budget of 10, 60 more do not
    assert Solver(g, max_positions=10, cache=cache).grundy((45,), method="search") == 45 % 2
    with pytest.raises(SearchTooLargeError, match="more than 10"):
        Solver(g, max_positions=10, cache=cache).grundy((105,), method="search")


def test_trim_keeps_the_bound_and_drops_least_recently_used_games() -> None:
    cache = SearchCache(max_positions=90)
    a, b = game("subtraction", S={1, 2}), game("subtraction", S={1, 4})
    Solver(a, cache=cache).grundy((60,), method="search")
    Solver(b, cache=cache).grundy((30,), method="search")
    cache.trim()
    assert cache.positions() == 31  # a (61 positions) was used first: dropped
    Solver(a, cache=cache).grundy((70,), method="search")
    cache.trim()
    assert cache.positions() == 71  # now b is the older one
    Solver(b, cache=cache).grundy((200,), method="search")
    cache.trim()  # one game alone beyond the bound: nothing kept
    assert cache.positions() == 0


def test_a_search_survives_its_memo_being_dropped() -> None:
    g = game("wythoff")
    cache = SearchCache()
    s = Solver(g, cache=cache)
    s.grundy((10, 12), method="search")
    cache.clear()  # the solver keeps its memo; the cache starts a new one
    assert s.grundy((14, 9), method="search") == nimlab.grundy("wythoff", (14, 9))
    assert cache.positions() == 0


def test_threads_sharing_the_cache_get_the_same_results() -> None:
    g = game("single-delete")
    cache = SearchCache()
    ps = list(itertools.combinations_with_replacement(range(1, 9), 3))
    expected = [Solver(g).is_p(p, method="search") for p in ps]
    results: dict[int, list[bool]] = {}

    def work(k: int) -> None:
        order = ps[k * 40 :] + ps[: k * 40]
        got = {p: Solver(g, cache=cache).is_p(p, method="search") for p in order}
        results[k] = [got[p] for p in ps]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results.values()) and len(results) == 3

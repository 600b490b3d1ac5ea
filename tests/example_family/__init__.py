"""An example game family, kept with the tests: Take-three Nim in one package.

Everything a family brings lives here (``docs/tutorials/new-family.md`` walks through
it): the rules (:mod:`.rules`), the closed form (:mod:`.formulas`), the constructive
strategy (:mod:`.strategy`), the compiled move model (:mod:`.compiled`) and the theorem
the closed form rests on (:mod:`.theorems`). nimlab finds it as a plugin: an installed
package names this package as an entry point of the group ``nimlab.games``, and the
registry registers the rulesets listed in ``GAMES``.
"""

from example_family.rules import TakeThree

GAMES = (TakeThree,)

__all__ = ["GAMES", "TakeThree"]

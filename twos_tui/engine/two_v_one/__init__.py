"""2v1: three players, an 18-card deck, one lone player against a duo (docs/rules.md §5).

A match is a series of *rounds* (one round = one deal of the protocol). A round:

1. **Bidding** from the player left of the rainbow holder: pass, 3 or 4 (the exact number
   of the 5 hands the bidder will take). A 3 may be overcalled by 4 by each other player
   in turn; a 4 ends the bidding. When a 3 stands, its bidder may raise it to 4 before the
   duo discard (phase ``raise``).
2. **Exchange** when nobody bids: every player chooses two cards at once (the rainbow
   holder must include the rainbow); nobody sees another's choice until all three have
   chosen; then each pair goes to the left neighbour and the bidding starts again. After
   the rainbow has been passed three times the bidding may not end without a bid: the
   last player to speak must bid (``forced``).
3. **Discard**: each duo member lays one card face down, out of play for the round.
4. **Five hands.** The lone player leads in two steps: ``Action("lead", (card,))`` lays
   the face-up card (never the rainbow), then ``Action("hide", (card,))`` the face-down
   one. The duo then ``follow`` (one card each; led suit if they hold it; the rainbow only
   when void), the lone's left neighbour first; after a led 2 (blindfold) both duo members
   choose at once, face down, and their cards are revealed together. The pairs are
   valued (:func:`pair_value`), the lone player wins ties. The winning side chooses which
   of the lone's two cards goes back to the lone hand (``Action("keep", value=code)``);
   the lone player's choice is secret. A played rainbow is always discarded (the other
   card returns at once), and after the fifth hand nothing returns.
5. **Score**: exact bid → lone +2 coins, otherwise each duo member +1. First to 7 coins
   (option); if two players reach it in the same round, one more round is played in which
   only they may bid, and its winner (the lone player if exact, else the other tied
   player) wins the match.

Choices where the text is silent (docs/rules.md §5.10): when the duo win a hand, the duo
member on the lone player's left decides which card returns; a forced bid falls to the last
eligible player to speak in the bidding when nobody has bid before; a player who passed
before a 3 was bid may still overcall it with 4 (the text: "each other player ... may
choose to bid 4").

The package, by role: :mod:`.core` is the rules, once, as integers (the round's state,
who acts, the legal moves, the trick flow and the coins; the search AI plays it
directly); :mod:`.game` is the protocol shell (:class:`TwoVOneGame`: its state is a core
round, and it translates card codes, words refusals, writes the log and the JSON); the
phase modules word each part of a round (:mod:`.bidding`, :mod:`.exchange`,
:mod:`.hand_play`, :mod:`.scoring` with the match's judge; their base is :mod:`.phase`);
:mod:`.deck` (the cards and pair values), :mod:`.view` (:class:`~.view.TwoVOneView`,
what a seat sees), :mod:`.observer` (which builds that view, the tags and the status line
from the core), :mod:`.codec` (JSON) and :mod:`.sampler` (what one seat may infer about
the hidden cards, for search).
"""

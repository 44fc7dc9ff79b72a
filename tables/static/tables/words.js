// The hand's words as the tablet and the floor console show them (translated by the
// djangojs catalogue of the tables app): one place for both screens.
const gettext = globalThis.gettext || ((s) => s);

export function actionWord(a) {
  return { fold: gettext("fold"), check: gettext("check"), call: gettext("call"), bet: gettext("bet"), raise: gettext("raise"),
    all_in: gettext("all-in"), dead_hand: gettext("dead hand"), fold_or_check: gettext("fold or check") }[a] || a;
}

export function streetWord(s) {
  return { preflop: gettext("preflop"), flop: gettext("flop"), turn: gettext("turn"), river: gettext("river") }[s] || s || "";
}

// The winning hand's category (tables/domain/hand_names.py), as the dealer announces it (SD-1).
export function handWord(c) {
  return { high_card: gettext("high card"), one_pair: gettext("pair"), two_pair: gettext("two pair"),
    three_of_a_kind: gettext("three of a kind"), straight: gettext("straight"), flush: gettext("flush"),
    full_house: gettext("full house"), four_of_a_kind: gettext("four of a kind"),
    straight_flush: gettext("straight flush"), royal_flush: gettext("royal flush") }[c] || c;
}

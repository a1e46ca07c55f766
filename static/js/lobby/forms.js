// The lobby's forms that create a game (a table, a seek) while the person plays a live game:
// the server refuses a live one until that game is over, and lets a correspondence one be
// played beside it (`games.matchmaking.core.check_free`). So the form's button is enabled only
// for what the server would accept, and the form's note says why when it is not.

/** Whether the form's chosen time control is a correspondence one (days per move). */
function correspondenceChosen(form) {
  const chosen = form.querySelector("[name=time_control] option:checked");
  return Boolean(chosen && chosen.hasAttribute("data-correspondence"));
}

/** Enable or disable the form's button for a person who is (`playing`) or is not in a live
 *  game; returns whether the form may be sent. */
export function renderCreateForm(form, { playing }) {
  const blocked = playing && !correspondenceChosen(form);
  form.querySelector("button[type=submit]").disabled = blocked;
  const note = form.querySelector("[data-role=busy]");
  if (note) note.hidden = !blocked;
  return !blocked;
}

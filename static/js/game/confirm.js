// A confirmation that a slip cannot pass: a modal dialog whose focus starts on Cancel (a second
// Enter cancels), whose confirming button stays disabled for a moment after it opens (the
// second click of a double click lands on a disabled button, or on the backdrop, which
// ignores it too), and which Esc, Cancel or (once armed) a click beside it close.

import { el } from "../dom.js";

/** How long the confirming button ignores the pointer and the keys after the dialog opens:
 *  longer than a double click's second click or a repeated Enter. */
export const CONFIRM_ARM_MS = 700;

/**
 * Open a confirmation in `parent`. `text` is the question, `confirm` and `cancel` the buttons'
 * words, `testid` names the dialog (its buttons are `<testid>-confirm`, `<testid>-cancel`).
 * Returns `{ dialog, close }`; `onConfirm` runs once, only from the armed confirming button;
 * `onClose` runs once when the dialog closes, however it closes.
 */
export function confirmDialog(parent, { text, confirm, cancel, testid, onConfirm, onClose = () => {}, armMs = CONFIRM_ARM_MS }) {
  const dialog = el("dialog", "confirm-dialog");
  dialog.dataset.testid = testid;
  dialog.setAttribute("aria-label", text);
  const question = el("p", "confirm-text", text);
  const row = el("div", "confirm-buttons");
  const no = el("button", "button", cancel);
  no.type = "button";
  no.dataset.testid = `${testid}-cancel`;
  const yes = el("button", "button danger", confirm);
  yes.type = "button";
  yes.dataset.testid = `${testid}-confirm`;
  yes.disabled = true;
  row.append(no, yes);
  const body = el("div", "confirm-body");
  body.append(question, row);
  dialog.append(body);

  let done = false;
  let armTimer = null;
  const close = () => {
    if (done) return;
    done = true;
    clearTimeout(armTimer);
    if (typeof dialog.close === "function" && dialog.open) dialog.close();
    dialog.remove();
    onClose();
  };
  no.addEventListener("click", close);
  yes.addEventListener("click", () => {
    if (done || yes.disabled) return;
    close();
    onConfirm();
  });
  // Esc: the browser's own "cancel" of a modal dialog; closing it removes it.
  dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(); });
  dialog.addEventListener("close", close);
  // A click on the backdrop (the dialog element itself: its content is all in `body`) cancels,
  // once armed: the second click of the double click that opened it leaves it open.
  dialog.addEventListener("click", (event) => { if (event.target === dialog && !yes.disabled) close(); });

  parent.append(dialog);
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  no.focus();
  armTimer = setTimeout(() => { if (!done) yes.disabled = false; }, armMs);
  return { dialog, close };
}

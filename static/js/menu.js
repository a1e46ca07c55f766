// The site's header on a narrow screen: the links and the account's controls fold into a menu
// that one button opens and closes (Esc, or a click elsewhere, closes it too). Without this
// script the button stays hidden and the header shows everything, as on a wide screen.

const header = document.querySelector(".site-header");
const button = header && header.querySelector(".menu-button");

if (button) {
  const setOpen = (open) => {
    header.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  header.classList.add("has-menu");
  button.hidden = false;
  button.addEventListener("click", () => setOpen(!header.classList.contains("menu-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.classList.contains("menu-open")) {
      setOpen(false);
      button.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (header.classList.contains("menu-open") && !header.contains(event.target)) setOpen(false);
  });
}

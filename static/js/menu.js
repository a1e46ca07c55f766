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

// On a wider screen the header is one row: the links that do not fit (the last ones first) go
// into the "More" list at the end of the links, whatever the language's words and the width.
const links = header && header.querySelector(".site-nav > ul");
const more = links && links.querySelector(".nav-more");

if (button && more) {
  const moreButton = more.querySelector(".nav-more-button");
  const moreList = more.querySelector(".nav-more-list");
  const narrow = window.matchMedia("(max-width: 600px)");
  const setMoreOpen = (open) => {
    moreList.hidden = !open;
    moreButton.setAttribute("aria-expanded", String(open));
  };
  const overflows = () => header.scrollWidth > header.clientWidth + 1;
  const fit = () => {
    for (const item of [...moreList.children]) links.insertBefore(item, more);
    more.hidden = true;
    setMoreOpen(false);
    if (narrow.matches) return;
    const foldable = [...links.children].filter(
      (item) => item !== more && !item.classList.contains("notify-menu"));
    while (overflows() && foldable.length) {
      more.hidden = false;
      moreList.prepend(foldable.pop());
    }
  };
  moreButton.addEventListener("click", () => setMoreOpen(moreList.hidden));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !moreList.hidden) {
      setMoreOpen(false);
      moreButton.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!moreList.hidden && !more.contains(event.target)) setMoreOpen(false);
  });
  let lastWidth = 0;
  new ResizeObserver(() => {
    if (header.clientWidth === lastWidth) return;
    lastWidth = header.clientWidth;
    fit();
  }).observe(header);
  if (document.fonts) document.fonts.ready.then(fit);
  fit();
}

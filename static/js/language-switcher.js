// The footer's language switcher: with JavaScript the choice applies at once; without it the
// button submits the form.
const form = document.querySelector(".language-switcher");
form?.querySelector("select").addEventListener("change", () => form.submit());

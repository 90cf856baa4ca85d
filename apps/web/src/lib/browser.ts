// One seam for page reloads and for leaving the app, so tests can observe them (jsdom cannot
// navigate, and window.location cannot be stubbed there).
export const reloadPage = () => {
  window.location.reload();
};

// Another site's page, e.g. the payment provider's hosted checkout.
export const goToUrl = (url: string) => {
  window.location.assign(url);
};

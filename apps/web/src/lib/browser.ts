// One seam for page reloads so tests can observe them (jsdom cannot navigate).
export const reloadPage = () => {
  window.location.reload();
};

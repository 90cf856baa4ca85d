import { chromiumPath } from './browser';

// Said once, before any flow starts, rather than as the same failure in every file.
export default () => {
  chromiumPath();
};

'use strict';
// An Error as the addon makes them: a one-line message and `code`, the name of
// libcuzk's status (cuzk_status_name: 'invalid_argument', 'not_found', ...).
function cuzkError(code, message) {
  return Object.assign(new Error(message), { code });
}

module.exports = { cuzkError };

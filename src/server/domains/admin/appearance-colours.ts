/**
 * Each skin's main colours (its :root variables), read from the Bootswatch and Bootstrap stylesheets
 * when this file was written (bootswatch 5.3), for the skins page's swatches: no stylesheet is
 * loaded to show them. The key "" is plain Bootstrap.
 */
export const SKIN_COLOURS: Record<string, { bg: string; fg: string; primary: string; secondary: string; success: string; danger: string; warning: string; info: string }> = {
  '': { bg: '#fff', fg: '#212529', primary: '#0d6efd', secondary: '#6c757d', success: '#198754', danger: '#dc3545', warning: '#ffc107', info: '#0dcaf0' },
  brite: { bg: '#fff', fg: '#212529', primary: '#a2e436', secondary: '#fff', success: '#68d391', danger: '#f56565', warning: '#ffc700', info: '#22d2ed' },
  cerulean: { bg: '#fff', fg: '#495057', primary: '#2fa4e7', secondary: '#e9ecef', success: '#73a839', danger: '#c71c22', warning: '#dd5600', info: '#033c73' },
  cosmo: { bg: '#fff', fg: '#373a3c', primary: '#2780e3', secondary: '#373a3c', success: '#3fb618', danger: '#ff0039', warning: '#ff7518', info: '#9954bb' },
  cyborg: { bg: '#060606', fg: '#adafae', primary: '#2a9fd6', secondary: '#555', success: '#77b300', danger: '#c00', warning: '#f80', info: '#93c' },
  darkly: { bg: '#222', fg: '#fff', primary: '#375a7f', secondary: '#444', success: '#00bc8c', danger: '#e74c3c', warning: '#f39c12', info: '#3498db' },
  flatly: { bg: '#fff', fg: '#212529', primary: '#2c3e50', secondary: '#95a5a6', success: '#18bc9c', danger: '#e74c3c', warning: '#f39c12', info: '#3498db' },
  journal: { bg: '#fff', fg: '#222', primary: '#eb6864', secondary: '#aaa', success: '#22b24c', danger: '#f57a00', warning: '#f5e625', info: '#369' },
  litera: { bg: '#fff', fg: '#343a40', primary: '#4582ec', secondary: '#adb5bd', success: '#02b875', danger: '#d9534f', warning: '#f0ad4e', info: '#17a2b8' },
  lumen: { bg: '#fff', fg: '#222', primary: '#158cba', secondary: '#f0f0f0', success: '#28b62c', danger: '#ff4136', warning: '#ff851b', info: '#75caeb' },
  lux: { bg: '#fff', fg: '#55595c', primary: '#1a1a1a', secondary: '#fff', success: '#4bbf73', danger: '#d9534f', warning: '#f0ad4e', info: '#1f9bcf' },
  materia: { bg: '#fff', fg: '#444', primary: '#2196f3', secondary: '#fff', success: '#4caf50', danger: '#e51c23', warning: '#ff9800', info: '#9c27b0' },
  minty: { bg: '#fff', fg: '#888', primary: '#78c2ad', secondary: '#f3969a', success: '#56cc9d', danger: '#ff7851', warning: '#ffce67', info: '#6cc3d5' },
  morph: { bg: '#d9e3f1', fg: '#7b8ab8', primary: '#378dfc', secondary: '#d9e3f1', success: '#43cc29', danger: '#e52527', warning: '#ffc107', info: '#5b62f4' },
  pulse: { bg: '#fff', fg: '#444', primary: '#593196', secondary: '#a991d4', success: '#13b955', danger: '#fc3939', warning: '#efa31d', info: '#009cdc' },
  quartz: { bg: '#686dc3', fg: '#fff', primary: '#e83283', secondary: 'rgba(255, 255, 255, 0.4)', success: '#41d7a7', danger: '#fd7e14', warning: '#ffc107', info: '#39cbfb' },
  sandstone: { bg: '#fff', fg: '#3e3f3a', primary: '#325d88', secondary: '#8e8c84', success: '#93c54b', danger: '#d9534f', warning: '#f47c3c', info: '#29abe0' },
  simplex: { bg: '#fcfcfc', fg: '#212529', primary: '#d9230f', secondary: '#fff', success: '#469408', danger: '#9b479f', warning: '#d9831f', info: '#029acf' },
  sketchy: { bg: '#fff', fg: '#212529', primary: '#333', secondary: '#555', success: '#28a745', danger: '#dc3545', warning: '#ffc107', info: '#17a2b8' },
  slate: { bg: '#272b30', fg: '#aaa', primary: '#3a3f44', secondary: '#7a8288', success: '#62c462', danger: '#ee5f5b', warning: '#f89406', info: '#5bc0de' },
  solar: { bg: '#002b36', fg: '#839496', primary: '#b58900', secondary: '#839496', success: '#2aa198', danger: '#d33682', warning: '#cb4b16', info: '#268bd2' },
  spacelab: { bg: '#fff', fg: '#777', primary: '#446e9b', secondary: '#999', success: '#3cb521', danger: '#cd0200', warning: '#d47500', info: '#3399f3' },
  superhero: { bg: '#0f2537', fg: '#ebebeb', primary: '#df6919', secondary: '#4e5d6c', success: '#5cb85c', danger: '#d9534f', warning: '#ffc107', info: '#5bc0de' },
  united: { bg: '#fff', fg: '#333', primary: '#e95420', secondary: '#aea79f', success: '#38b44a', danger: '#df382c', warning: '#efb73e', info: '#17a2b8' },
  vapor: { bg: '#1a0933', fg: '#32fbe2', primary: '#6f42c1', secondary: '#ea39b8', success: '#3cf281', danger: '#e44c55', warning: '#ffc107', info: '#1ba2f6' },
  yeti: { bg: '#fff', fg: '#222', primary: '#008cba', secondary: '#eee', success: '#43ac6a', danger: '#f04124', warning: '#e99002', info: '#5bc0de' },
  zephyr: { bg: '#fff', fg: '#495057', primary: '#3459e6', secondary: '#fff', success: '#2fb380', danger: '#da292e', warning: '#f4bd61', info: '#287bb5' },
};

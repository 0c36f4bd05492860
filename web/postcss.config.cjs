/* Spec breakpoints (sm 575, md 768, lg 992, xl 1200, xxl 1400) for `$mantine-breakpoint-*` in .module.css files. */
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
    'postcss-simple-vars': {
      variables: {
        'mantine-breakpoint-xs': '35.9375em',
        'mantine-breakpoint-sm': '48em',
        'mantine-breakpoint-md': '62em',
        'mantine-breakpoint-lg': '75em',
        'mantine-breakpoint-xl': '87.5em',
      },
    },
  },
};

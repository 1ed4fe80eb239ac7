/**
 * Chakra UI v3 system: a restrained industrial look — one deep blue brand colour, neutral greys, the spec's
 * breakpoints, and controls sized for gloved fingers on tablets (buttons and inputs 44 px high by default).
 *
 * why not `defaultConfig`: it carries the recipes of all ~80 Chakra components (~100 kB minified) into the entry,
 * and `createSystem` walks every one at boot. The system gets Chakra's base preset, its tokens and styles, and only
 * the recipes of the components the app imports (`usedRecipes` below; theme.test.ts fails when a component
 * imported anywhere in src/client has no recipe here — Chakra would render it unstyled without a word).
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breadcrumbSlotRecipe,
  breakpoints as defaultBreakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes as defaultKeyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  selectSlotRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';
import { BRAND_COLOR, CANVAS_COLOR } from '../../shared/brand';

const config = defineConfig({
  globalCss: {
    html: { colorPalette: 'brand' },
    body: { bg: 'bg.canvas', color: 'fg' },
  },
  theme: {
    // Spec breakpoints: xs 0 (Chakra's `base`), sm 600, md 960, lg 1280, xl 1440.
    breakpoints: { sm: '600px', md: '960px', lg: '1280px', xl: '1440px' },
    // why transform only: an animated layout property (Chakra's indeterminate progress moves `left`) re-lays out
    // every frame and slowed a throttled initial sync from 7.4 s to 19.3 s; a transform runs on the compositor.
    keyframes: {
      'sync-slide': { from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } },
    },
    tokens: {
      colors: {
        brand: {
          50: { value: '#eef3fa' },
          100: { value: '#d5e1f2' },
          200: { value: '#aac3e4' },
          300: { value: '#7a9fd1' },
          400: { value: '#4d7cbb' },
          500: { value: '#2f60a3' },
          600: { value: '#244d87' },
          700: { value: BRAND_COLOR },
          800: { value: '#142f57' },
          900: { value: '#0e213e' },
          950: { value: '#08152a' },
        },
      },
    },
    semanticTokens: {
      colors: {
        brand: {
          solid: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.500}' } },
          contrast: { value: { _light: 'white', _dark: 'white' } },
          fg: { value: { _light: '{colors.brand.700}', _dark: '{colors.brand.200}' } },
          muted: { value: { _light: '{colors.brand.100}', _dark: '{colors.brand.800}' } },
          subtle: { value: { _light: '{colors.brand.50}', _dark: '{colors.brand.900}' } },
          emphasized: { value: { _light: '{colors.brand.200}', _dark: '{colors.brand.700}' } },
          focusRing: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
          border: { value: { _light: '{colors.brand.500}', _dark: '{colors.brand.400}' } },
        },
        bg: {
          canvas: { value: { _light: CANVAS_COLOR, _dark: '{colors.gray.950}' } },
        },
        // why one shade darker than Chakra's: white text on green.600 (3.3:1) and orange.600 (3.6:1), and red.500
        // error text on white (3.8:1), fail WCAG AA's 4.5:1 (tests/e2e/accessibility.spec.ts).
        green: { solid: { value: { _light: '{colors.green.700}', _dark: '{colors.green.600}' } } },
        orange: { solid: { value: { _light: '{colors.orange.700}', _dark: '{colors.orange.600}' } }, contrast: { value: { _light: 'white', _dark: 'white' } } },
        fg: { error: { value: { _light: '{colors.red.700}', _dark: '{colors.red.400}' } } },
      },
    },
    recipes: {
      // why lg: 44 px is the minimum touch target (WCAG 2.5.5); md buttons and inputs are 40 px.
      button: { defaultVariants: { size: 'lg' } },
      input: { defaultVariants: { size: 'lg' } },
    },
  },
});

/** Chakra's theme (what `defaultConfig` adds to the base preset) with the recipes of the components in use only. */
export const usedRecipes = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints: defaultBreakpoints,
    keyframes: defaultKeyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      inputAddon: inputAddonRecipe,
      link: linkRecipe,
      separator: separatorRecipe,
      skeleton: skeletonRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      accordion: accordionSlotRecipe,
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      breadcrumb: breadcrumbSlotRecipe,
      card: cardSlotRecipe,
      checkbox: checkboxSlotRecipe,
      dataList: dataListSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      select: selectSlotRecipe,
      table: tableSlotRecipe,
      tabs: tabsSlotRecipe,
      toast: toastSlotRecipe,
    },
  },
});

export const system = createSystem(defaultBaseConfig, usedRecipes, config);


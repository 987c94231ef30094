import { z } from 'zod';
import { EMOJI_MAX, URL_MAX } from './common.js';

/**
 * Site customization (the contract's SiteCustomizationSettings): `GET|PUT /v1/orgs/{org}/sites/{site}/customization`
 * and, per site space, `GET|PATCH|DELETE …/site-spaces/{siteSpaceId}/customization` (overrides of the site's,
 * `null` resetting one). What the published pages apply is listed in the README ("Customization").
 */

export const CUSTOMIZATION_URL_MAX = URL_MAX;
export const CUSTOMIZATION_TITLE_MIN = 2;
export const CUSTOMIZATION_TITLE_MAX = 128;
export const CUSTOMIZATION_LINK_TITLE_MAX = 64;
export const CUSTOMIZATION_COPYRIGHT_MAX = 300;
export const CUSTOMIZATION_ANNOUNCEMENT_MAX = 128;
export const CUSTOMIZATION_EXPRESSION_MAX = 1024;
/** Header links, footer groups, and links in one group or menu (the contract sets none; these keep pages sane). */
export const CUSTOMIZATION_LINKS_MAX = 20;

/** An image or page address: http(s) only, since published pages put it in `src` or `href`. */
const urlSchema = z
  .url({ protocol: /^https?$/, message: 'An http(s) URL' })
  .max(CUSTOMIZATION_URL_MAX, `at most ${CUSTOMIZATION_URL_MAX} characters`);
const colorSchema = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'A color such as #3a5bd9 or #fff');
export const themedColorSchema = z.object({ light: colorSchema, dark: colorSchema });
export type ThemedColor = z.infer<typeof themedColorSchema>;
export const themedUrlSchema = z.object({ light: urlSchema, dark: urlSchema });

/** Where a link of the header or footer leads (the contract's ContentRef). */
export const contentRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: z.string().min(1).max(CUSTOMIZATION_URL_MAX) }),
  z.object({ kind: z.literal('file'), file: z.string().min(1) }),
  z.object({ kind: z.literal('page'), page: z.string().min(1), space: z.string().optional() }),
  z.object({
    kind: z.literal('anchor'),
    anchor: z.string().min(1),
    space: z.string().optional(),
    page: z.string().optional(),
  }),
  z.object({ kind: z.literal('user'), user: z.string().min(1) }),
  z.object({ kind: z.literal('collection'), collection: z.string().min(1) }),
  z.object({ kind: z.literal('space'), space: z.string().min(1) }),
  z.object({ kind: z.literal('reusable-content'), reusableContent: z.string().min(1), space: z.string().optional() }),
  z.object({ kind: z.literal('openapi'), spec: z.string().min(1) }),
]);
export type ContentRef = z.infer<typeof contentRefSchema>;

export const customizationLinkSchema = z.object({
  title: z.string().max(CUSTOMIZATION_LINK_TITLE_MAX),
  to: contentRefSchema,
});
export type CustomizationLink = z.infer<typeof customizationLinkSchema>;

export const headerItemSchema = z.object({
  title: z.string().max(CUSTOMIZATION_LINK_TITLE_MAX),
  style: z.enum(['link', 'button-primary', 'button-secondary']).optional(),
  to: contentRefSchema.nullable(),
  links: z.array(customizationLinkSchema).max(CUSTOMIZATION_LINKS_MAX),
  /** Shown only to visitors whose claims match (an adaptive-content expression). */
  condition: z.string().max(CUSTOMIZATION_EXPRESSION_MAX).optional(),
});
export type HeaderItem = z.infer<typeof headerItemSchema>;

export const footerGroupSchema = z.object({
  title: z.string().max(CUSTOMIZATION_LINK_TITLE_MAX),
  links: z.array(customizationLinkSchema).max(CUSTOMIZATION_LINKS_MAX),
});

const fontFaceSchema = z.object({
  weight: z.number().int().min(1).max(1000),
  sources: z
    .array(z.object({ url: urlSchema, format: z.string().max(20).optional() }))
    .min(1)
    .max(10),
});
const fontDefinitionSchema = z.object({
  id: z.string().max(100),
  custom: z.boolean(),
  fontFamily: z.string().min(1).max(50),
  fontFaces: z.array(fontFaceSchema).min(1).max(10),
});
export const DEFAULT_FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;
export const DEFAULT_MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;

export const CUSTOMIZATION_THEMES = ['clean', 'muted', 'bold', 'gradient'] as const;
export const CUSTOMIZATION_CORNERS = ['straight', 'rounded', 'circular'] as const;
export const CUSTOMIZATION_LINK_STYLES = ['default', 'accent'] as const;
export const CUSTOMIZATION_SIDEBAR_LISTS = ['default', 'pill', 'line'] as const;

const stylingSchema = z.object({
  theme: z.enum(CUSTOMIZATION_THEMES),
  primaryColor: themedColorSchema,
  tint: z.object({ color: themedColorSchema }).optional(),
  infoColor: themedColorSchema,
  successColor: themedColorSchema,
  warningColor: themedColorSchema,
  dangerColor: themedColorSchema,
  corners: z.enum(CUSTOMIZATION_CORNERS),
  depth: z.enum(['subtle', 'flat']),
  links: z.enum(CUSTOMIZATION_LINK_STYLES),
  font: z.union([z.enum(DEFAULT_FONTS), fontDefinitionSchema]),
  monospaceFont: z.union([z.enum(DEFAULT_MONOSPACE_FONTS), fontDefinitionSchema]),
  background: z.enum(['plain', 'match']),
  icons: z.enum(['regular', 'solid', 'duotone', 'light', 'thin']),
  sidebar: z.object({ background: z.enum(['default', 'filled']), list: z.enum(CUSTOMIZATION_SIDEBAR_LISTS) }),
  search: z.enum(['prominent', 'subtle']),
});

const faviconSchema = z.union([
  z.object({ icon: themedUrlSchema }).strict(),
  z.object({ emoji: z.string().min(1).max(EMOJI_MAX) }).strict(),
  z.object({}).strict(),
]);

const announcementSchema = z.object({
  enabled: z.boolean(),
  message: z.string().min(2).max(CUSTOMIZATION_ANNOUNCEMENT_MAX),
  link: customizationLinkSchema.optional(),
  style: z.enum(['info', 'warning', 'danger', 'success']),
});

const enabled = z.object({ enabled: z.boolean() });

/** The whole settings of a site (PUT replaces them; every required part must be sent). */
export const customizationSchema = z.object({
  title: z.string().min(CUSTOMIZATION_TITLE_MIN).max(CUSTOMIZATION_TITLE_MAX).optional(),
  styling: stylingSchema,
  internationalization: z.object({
    locale: z.enum(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']),
  }),
  favicon: faviconSchema,
  header: z.object({
    preset: z.enum(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: themedUrlSchema.optional(),
    backgroundColor: themedColorSchema.optional(),
    linkColor: themedColorSchema.optional(),
    links: z.array(headerItemSchema).max(CUSTOMIZATION_LINKS_MAX),
  }),
  footer: z.object({
    logo: themedUrlSchema.optional(),
    groups: z.array(footerGroupSchema).max(CUSTOMIZATION_LINKS_MAX),
    copyright: z.string().max(CUSTOMIZATION_COPYRIGHT_MAX).optional(),
  }),
  announcement: announcementSchema.optional(),
  themes: z.object({ default: z.enum(['light', 'dark']), toggeable: z.boolean() }),
  pdf: enabled,
  feedback: enabled,
  ai: z.object({ mode: z.enum(['none', 'search', 'assistant']) }),
  advancedCustomization: enabled,
  git: z.object({ showEditLink: z.boolean() }),
  pageActions: z.object({ externalAI: z.boolean(), markdown: z.boolean(), mcp: z.boolean() }),
  externalLinks: z.object({ target: z.enum(['self', 'blank']) }),
  pagination: enabled,
  trademark: enabled,
  privacyPolicy: z.object({ url: urlSchema.optional() }),
  socialPreview: z.object({ url: urlSchema.optional() }),
  insights: z.object({ trackingCookie: z.boolean() }),
});
export type Customization = z.infer<typeof customizationSchema>;

/** A site space's settings: the site's with its overrides applied. */
export const siteSpaceCustomizationSchema = customizationSchema.extend({ hasOverrides: z.boolean() });

/** A part of the settings that a site space may override; `null` resets it to the site's. */
const override = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/**
 * PATCH of a site space's customization: only what is sent changes; `null` removes that override (the site's value
 * applies again). Objects are merged field by field, lists replaced whole.
 */
export const siteSpaceCustomizationPatchSchema = z
  .object({
    title: override(customizationSchema.shape.title.unwrap()),
    styling: z
      .object({
        theme: override(stylingSchema.shape.theme),
        primaryColor: override(themedColorSchema),
        infoColor: override(themedColorSchema),
        successColor: override(themedColorSchema),
        warningColor: override(themedColorSchema),
        dangerColor: override(themedColorSchema),
        tint: override(z.object({ color: themedColorSchema })),
        corners: override(stylingSchema.shape.corners),
        depth: override(stylingSchema.shape.depth),
        links: override(stylingSchema.shape.links),
        icons: override(stylingSchema.shape.icons),
        sidebar: z
          .object({
            background: override(stylingSchema.shape.sidebar.shape.background),
            list: override(stylingSchema.shape.sidebar.shape.list),
          })
          .optional(),
        search: override(stylingSchema.shape.search),
        background: override(stylingSchema.shape.background),
      })
      .optional(),
    internationalization: z
      .object({ locale: override(customizationSchema.shape.internationalization.shape.locale) })
      .optional(),
    favicon: override(faviconSchema),
    announcement: override(announcementSchema),
    header: z
      .object({
        preset: override(customizationSchema.shape.header.shape.preset),
        logo: override(themedUrlSchema),
        backgroundColor: override(themedColorSchema),
        linkColor: override(themedColorSchema),
        links: override(customizationSchema.shape.header.shape.links),
      })
      .optional(),
    footer: z
      .object({
        logo: override(themedUrlSchema),
        groups: override(customizationSchema.shape.footer.shape.groups),
        copyright: override(z.string().max(CUSTOMIZATION_COPYRIGHT_MAX)),
      })
      .optional(),
    themes: z
      .object({
        default: override(customizationSchema.shape.themes.shape.default),
        toggeable: override(z.boolean()),
      })
      .optional(),
    pdf: z.object({ enabled: override(z.boolean()) }).optional(),
    feedback: z.object({ enabled: override(z.boolean()) }).optional(),
    git: z.object({ showEditLink: override(z.boolean()) }).optional(),
    externalLinks: z.object({ target: override(customizationSchema.shape.externalLinks.shape.target) }).optional(),
    pagination: z.object({ enabled: override(z.boolean()) }).optional(),
    trademark: z.object({ enabled: override(z.boolean()) }).optional(),
    privacyPolicy: z.object({ url: override(urlSchema) }).optional(),
    socialPreview: z.object({ url: override(urlSchema) }).optional(),
  })
  .strict();
export type SiteSpaceCustomizationPatch = z.infer<typeof siteSpaceCustomizationPatchSchema>;

/**
 * What a site looks like until its customization is set: this server's own theme (its accent colours, the theme
 * toggle, previous/next links, the "Published with Docspace" line).
 */
export function defaultCustomization(): Customization {
  const color = (light: string, dark: string) => ({ light, dark });
  return {
    styling: {
      theme: 'clean',
      primaryColor: color('#3a5bd9', '#8ea6ff'),
      infoColor: color('#3a5bd9', '#8ea6ff'),
      successColor: color('#1b7f4a', '#4cc38a'),
      warningColor: color('#9a6700', '#e3b341'),
      dangerColor: color('#c62828', '#ff7b72'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'pill' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    pdf: { enabled: false },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: false },
    git: { showEditLink: false },
    pageActions: { externalAI: false, markdown: false, mcp: false },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    trademark: { enabled: true },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: false },
  };
}

/**
 * A FAQ belongs to one machine (internal FAQ, specifier 'internalfaq' as in the spec) or to an equipment type
 * (the machine builder's FAQ; the spec does not name its specifier, 'equipmenttypefaq' is ours).
 */
export const FAQ_SPECIFIERS = ['internalfaq', 'equipmenttypefaq'] as const;
export type FaqSpecifier = (typeof FAQ_SPECIFIERS)[number];

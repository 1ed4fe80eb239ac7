/** Costs of a notification, report or maintenance task (spec part 1 §3 "Cost", §5). */

/** The spec only shows 'actualcost'; 'plannedcost' carries the effort planned up front (placeholders 10 planned, 20 actual). */
export const COST_SPECIFIERS = ['actualcost', 'plannedcost'] as const;
export type CostSpecifier = (typeof COST_SPECIFIERS)[number];

/** Stable keys of the standard cost types, in the spec's display order. */
export const COST_TYPE_KEYS = ['parts', 'operatingmaterials', 'externalservices', 'downtime', 'internalhours'] as const;
export type CostTypeKey = (typeof COST_TYPE_KEYS)[number];

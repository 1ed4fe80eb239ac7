// The one place that gathers every table for Drizzle's query API and for drizzle-kit.
export * from './schema/core';
export * from './schema/accounts';
export * from './schema/units';
export * from './schema/files';
export * from './schema/structure';
export * from './schema/maintenance';
export * from './schema/notifications';
export * from './schema/solutions';
export * from './schema/chat';
export * from './schema/costs';
export * from './schema/billing';
export * from './schema/support';
export * from './schema/history';

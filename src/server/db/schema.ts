// The one place that gathers every table for Drizzle's query API and for drizzle-kit.
export * from './schema/core';

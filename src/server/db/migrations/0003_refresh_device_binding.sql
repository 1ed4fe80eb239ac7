DROP INDEX "refresh_tokens_user_idx";--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "retried_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "device_client_id" uuid;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "device_secret_hash" text;--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("usernodeid","device_client_id");
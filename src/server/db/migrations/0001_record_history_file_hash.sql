CREATE TABLE "record_history" (
	"id" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"kind" text NOT NULL,
	"nodeid" uuid NOT NULL,
	"version" bigint NOT NULL,
	"changes" jsonb NOT NULL,
	"context" jsonb,
	"usernodeid" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "record_history" ADD CONSTRAINT "record_history_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_history" ADD CONSTRAINT "record_history_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_history_node_idx" ON "record_history" USING btree ("kind","nodeid","version");
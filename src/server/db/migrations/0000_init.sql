CREATE TABLE "legal_entities" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"clientid" text NOT NULL,
	"clienttype" text DEFAULT 'company' NOT NULL,
	"ownerlegalentitynodeid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"profileid" text NOT NULL,
	"name" jsonb NOT NULL,
	"features" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"family_id" uuid NOT NULL,
	"usernodeid" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_clients" (
	"clientid" uuid PRIMARY KEY NOT NULL,
	"usernodeid" uuid NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"last_mutation_id" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_mutations" (
	"clientid" uuid NOT NULL,
	"mutation_id" bigint NOT NULL,
	"request_hash" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_mutations_clientid_mutation_id_pk" PRIMARY KEY("clientid","mutation_id")
);
--> statement-breakpoint
CREATE TABLE "tenant_versions" (
	"legalentitynodeid" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"purged_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tombstones" (
	"legalentitynodeid" uuid NOT NULL,
	"kind" text NOT NULL,
	"nodeid" uuid NOT NULL,
	"version" bigint NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tombstones_kind_nodeid_pk" PRIMARY KEY("kind","nodeid")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"userid" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"password_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"givenname" text NOT NULL,
	"surname" text NOT NULL,
	"mobilephone" text,
	"landlinephone" text,
	"department" text,
	"costcenter" text,
	"personnelnumber" text,
	"professionaltraining" jsonb,
	"qualification" text,
	"image" jsonb,
	"profileid" text NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"superuser" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"lang" text DEFAULT 'de' NOT NULL,
	"autologoutweb" boolean DEFAULT false NOT NULL,
	"twofa_secret" text,
	"twofa_enabled" boolean DEFAULT false NOT NULL,
	"assignedequipment" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_clients" ADD CONSTRAINT "sync_clients_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_mutations" ADD CONSTRAINT "sync_mutations_clientid_sync_clients_clientid_fk" FOREIGN KEY ("clientid") REFERENCES "public"."sync_clients"("clientid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "legal_entities_clientid_uq" ON "legal_entities" USING btree ("clientid");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_le_profileid_uq" ON "profiles" USING btree ("legalentitynodeid","profileid");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "tombstones_le_version_idx" ON "tombstones" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_userid_uq" ON "users" USING btree ("userid");--> statement-breakpoint
CREATE INDEX "users_le_idx" ON "users" USING btree ("legalentitynodeid","version");
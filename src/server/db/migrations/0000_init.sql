CREATE TABLE "account_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"usernodeid" uuid NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_tokens_purpose_ck" CHECK ("account_tokens"."purpose" in ('activation', 'setpassword', 'passwordreset'))
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid,
	"dedupekey" text,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"textbody" text NOT NULL,
	"htmlbody" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"nextattemptat" timestamp with time zone DEFAULT now() NOT NULL,
	"lasterror" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_outbox_status_ck" CHECK ("mail_outbox"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "billing_infos" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"billingname" text NOT NULL,
	"billingstreet" text NOT NULL,
	"billingstreetnumber" text NOT NULL,
	"billingaddressaddon" text,
	"billingzipcode" text NOT NULL,
	"billingcity" text NOT NULL,
	"billingcountry" text NOT NULL,
	"billingbillingemail" text,
	"invoicebyemail" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"ordernumber" integer NOT NULL,
	"plannodeid" uuid NOT NULL,
	"packages" integer NOT NULL,
	"sumpermonth" numeric(12, 2) NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"documentsdueat" timestamp with time zone NOT NULL,
	"orderedbynodeid" uuid,
	CONSTRAINT "orders_status_ck" CHECK ("orders"."status" in ('submitted', 'confirmed', 'cancelled')),
	CONSTRAINT "orders_ordernumber_ck" CHECK ("orders"."ordernumber" between 10000 and 99999),
	CONSTRAINT "orders_packages_ck" CHECK ("orders"."packages" >= 0)
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"planid" text NOT NULL,
	"name" text NOT NULL,
	"pricepermonth" numeric(12, 2) NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"maxusers" integer NOT NULL,
	"term" text NOT NULL,
	"quotas" jsonb NOT NULL,
	"position" integer NOT NULL,
	"orderable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"plannodeid" uuid NOT NULL,
	"subscriptionid" text NOT NULL,
	"term" text NOT NULL,
	"quotas" jsonb NOT NULL,
	"packages" integer DEFAULT 1 NOT NULL,
	"startingfrom" timestamp with time zone NOT NULL,
	"noticeperiod" text NOT NULL,
	"status" text NOT NULL,
	"autorenew" boolean DEFAULT true NOT NULL,
	CONSTRAINT "subscriptions_status_ck" CHECK ("subscriptions"."status" in ('trial', 'active', 'cancelled', 'expired')),
	CONSTRAINT "subscriptions_packages_ck" CHECK ("subscriptions"."packages" >= 0)
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"chatroomnodeid" uuid NOT NULL,
	"authornodeid" uuid,
	"body" text NOT NULL,
	"sent" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_room_members" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"chatroomnodeid" uuid NOT NULL,
	"usernodeid" uuid NOT NULL,
	"lastreadat" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"notificationnodeid" uuid
);
--> statement-breakpoint
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
CREATE TABLE "cost_types" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"costtypeid" text,
	"name" jsonb NOT NULL,
	"unitnodeid" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "cost_types_costtypeid_ck" CHECK ("cost_types"."costtypeid" in ('parts', 'operatingmaterials', 'externalservices', 'downtime', 'internalhours'))
);
--> statement-breakpoint
CREATE TABLE "costs" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text,
	"value" numeric(14, 2) NOT NULL,
	"costtypenodeid" uuid NOT NULL,
	"specifier" text DEFAULT 'actualcost' NOT NULL,
	"notificationnodeid" uuid,
	"reportnodeid" uuid,
	"maintenancetasknodeid" uuid,
	"authornodeid" uuid,
	CONSTRAINT "costs_source_ck" CHECK (num_nonnulls("costs"."notificationnodeid", "costs"."reportnodeid", "costs"."maintenancetasknodeid") = 1),
	CONSTRAINT "costs_value_ck" CHECK ("costs"."value" >= 0),
	CONSTRAINT "costs_specifier_ck" CHECK ("costs"."specifier" in ('actualcost', 'plannedcost'))
);
--> statement-breakpoint
CREATE TABLE "attachment_categories" (
	"categoryid" text PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attachment_categories_categoryid_ck" CHECK ("attachment_categories"."categoryid" in ('operation', 'setup', 'maintenance', 'safety', 'internalinstructions'))
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"specifier" text,
	"filenodeid" uuid NOT NULL,
	"isattachmentof" uuid NOT NULL,
	"targetkind" text NOT NULL,
	"authornodeid" uuid,
	CONSTRAINT "attachments_targetkind_ck" CHECK ("attachments"."targetkind" in ('equipment', 'equipmenttype', 'notification', 'workflowstep', 'faq', 'report', 'maintenancetask'))
);
--> statement-breakpoint
CREATE TABLE "files" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"fileid" uuid NOT NULL,
	"fileversion" integer DEFAULT 1 NOT NULL,
	"bucketid" text NOT NULL,
	"storagekey" text NOT NULL,
	"mimetype" text NOT NULL,
	"extension" text,
	"size" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"completed_at" timestamp with time zone,
	"createdbynodeid" uuid,
	CONSTRAINT "files_status_ck" CHECK ("files"."status" in ('pending', 'complete')),
	CONSTRAINT "files_size_ck" CHECK ("files"."size" is null or "files"."size" >= 0),
	CONSTRAINT "files_fileversion_ck" CHECK ("files"."fileversion" >= 1)
);
--> statement-breakpoint
CREATE TABLE "counter_readings" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"counternodeid" uuid NOT NULL,
	"value" numeric(18, 3) NOT NULL,
	"takenat" timestamp with time zone NOT NULL,
	"createdbynodeid" uuid
);
--> statement-breakpoint
CREATE TABLE "counter_types" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"unitnodeid" uuid NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "counters" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"equipmentnodeid" uuid NOT NULL,
	"countertypenodeid" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "maintenance_categories" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" jsonb NOT NULL,
	"colorcode" text NOT NULL,
	CONSTRAINT "maintenance_categories_colorcode_ck" CHECK ("maintenance_categories"."colorcode" ~ '^#[0-9A-Fa-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "maintenance_task_templates" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"safetynotice" jsonb,
	"repetitioninterval" text NOT NULL,
	"triggertype" text DEFAULT 'time' NOT NULL,
	"triggeringvalue" numeric(18, 3),
	"reminder" text,
	"categorynodeid" uuid,
	"equipmenttypenodeid" uuid,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "maintenance_task_templates_repetitioninterval_ck" CHECK ("maintenance_task_templates"."repetitioninterval" in ('onetime', '1w', '2w', '1m', '2m', '3m', '6m', '12m', '18m', '24m', '36m', '48m')),
	CONSTRAINT "maintenance_task_templates_triggertype_ck" CHECK ("maintenance_task_templates"."triggertype" in ('time', 'counter')),
	CONSTRAINT "maintenance_task_templates_reminder_ck" CHECK ("maintenance_task_templates"."reminder" in ('2d', '1w', '2w', '1m'))
);
--> statement-breakpoint
CREATE TABLE "maintenance_tasks" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"maintenancetaskid" text NOT NULL,
	"title" text NOT NULL,
	"safetynotice" jsonb,
	"startingfrom" timestamp with time zone NOT NULL,
	"repetitioninterval" text NOT NULL,
	"nextdueat" timestamp with time zone,
	"triggertype" text DEFAULT 'time' NOT NULL,
	"triggeringcounternodeid" uuid,
	"triggeringvalue" numeric(18, 3),
	"reminder" text,
	"categorynodeid" uuid,
	"equipmentnodeid" uuid NOT NULL,
	CONSTRAINT "maintenance_tasks_repetitioninterval_ck" CHECK ("maintenance_tasks"."repetitioninterval" in ('onetime', '1w', '2w', '1m', '2m', '3m', '6m', '12m', '18m', '24m', '36m', '48m')),
	CONSTRAINT "maintenance_tasks_triggertype_ck" CHECK ("maintenance_tasks"."triggertype" in ('time', 'counter')),
	CONSTRAINT "maintenance_tasks_reminder_ck" CHECK ("maintenance_tasks"."reminder" in ('2d', '1w', '2w', '1m')),
	CONSTRAINT "maintenance_tasks_triggeringvalue_ck" CHECK ("maintenance_tasks"."triggeringvalue" is null or "maintenance_tasks"."triggeringvalue" > 0)
);
--> statement-breakpoint
CREATE TABLE "notification_assignments" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"notificationnodeid" uuid NOT NULL,
	"usernodeid" uuid NOT NULL,
	"assignedbynodeid" uuid
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"type" smallint NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"created" timestamp with time zone NOT NULL,
	"progressstarted" timestamp with time zone,
	"closed" timestamp with time zone,
	"dueuntil" timestamp with time zone,
	"errorcode" text,
	"equipmentnodeid" uuid NOT NULL,
	"authornodeid" uuid,
	"maintenancetasknodeid" uuid,
	CONSTRAINT "notifications_type_ck" CHECK ("notifications"."type" in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
	CONSTRAINT "notifications_status_ck" CHECK ("notifications"."status" in (0, 1, 2))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"notificationnodeid" uuid NOT NULL,
	"executed" timestamp with time zone NOT NULL,
	"comment" text,
	"authorsignature" text,
	"authorsignatureimagefilenodeid" uuid,
	"created" timestamp with time zone NOT NULL,
	"authornodeid" uuid
);
--> statement-breakpoint
CREATE TABLE "faqs" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"question" text NOT NULL,
	"answer" text,
	"specifier" text DEFAULT 'internalfaq' NOT NULL,
	"equipmentnodeid" uuid,
	"equipmenttypenodeid" uuid,
	"authornodeid" uuid,
	CONSTRAINT "faqs_target_ck" CHECK (num_nonnulls("faqs"."equipmentnodeid", "faqs"."equipmenttypenodeid") = 1),
	CONSTRAINT "faqs_specifier_ck" CHECK ("faqs"."specifier" in ('internalfaq', 'equipmenttypefaq'))
);
--> statement-breakpoint
CREATE TABLE "workflow_steps" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"workflownodeid" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"title" text,
	"description" text,
	"created" timestamp with time zone NOT NULL,
	"authornodeid" uuid
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"title" text,
	"notificationnodeid" uuid,
	"maintenancetasknodeid" uuid,
	"authornodeid" uuid,
	"created" timestamp with time zone NOT NULL,
	CONSTRAINT "workflows_owner_ck" CHECK (num_nonnulls("workflows"."notificationnodeid", "workflows"."maintenancetasknodeid") = 1)
);
--> statement-breakpoint
CREATE TABLE "areas" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"areaid" text,
	"sitenodeid" uuid NOT NULL,
	"shiftmodelnodeid" uuid
);
--> statement-breakpoint
CREATE TABLE "brands" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"manufacturernodeid" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"equipmentid" text,
	"inventoryid" text,
	"manufacturerserialnumber" text,
	"constructiondate" timestamp with time zone NOT NULL,
	"commissioningdate" timestamp with time zone,
	"costcenter" jsonb,
	"inspectionbooknumber" text,
	"dimensions" jsonb,
	"electricalpower" numeric(12, 3),
	"mediasupply" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"controllerinformation" jsonb,
	"hourlyrate" numeric(12, 2),
	"hourlyratecurrency" text DEFAULT 'EUR' NOT NULL,
	"imagefilenodeid" uuid,
	"typenameplatefilenodeid" uuid,
	"memo" text,
	"equipmenttypenodeid" uuid NOT NULL,
	"equipmentclassnodeid" uuid,
	"areanodeid" uuid,
	"equipmentpoolnodeid" uuid,
	"shiftmodelnodeid" uuid,
	"useareashiftmodel" boolean DEFAULT true NOT NULL,
	CONSTRAINT "equipment_dimensions_ck" CHECK ("equipment"."dimensions" is null or (jsonb_typeof("equipment"."dimensions") = 'array' and jsonb_array_length("equipment"."dimensions") = 3)),
	CONSTRAINT "equipment_electricalpower_ck" CHECK ("equipment"."electricalpower" is null or "equipment"."electricalpower" >= 0),
	CONSTRAINT "equipment_hourlyrate_ck" CHECK ("equipment"."hourlyrate" is null or "equipment"."hourlyrate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "equipment_classes" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment_pools" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equipment_types" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"model" text NOT NULL,
	"brandnodeid" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shift_models" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text
);
--> statement-breakpoint
CREATE TABLE "shifts" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"shiftmodelnodeid" uuid NOT NULL,
	"position" integer NOT NULL,
	"weekdays" smallint[] NOT NULL,
	"startminute" integer NOT NULL,
	"endminute" integer NOT NULL,
	"unmanned" boolean DEFAULT false NOT NULL,
	CONSTRAINT "shifts_weekdays_ck" CHECK (cardinality("shifts"."weekdays") > 0 and "shifts"."weekdays" <@ array[1,2,3,4,5,6,7]::smallint[]),
	CONSTRAINT "shifts_minutes_ck" CHECK ("shifts"."startminute" between 0 and 1439 and "shifts"."endminute" between 0 and 1439)
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"street" text NOT NULL,
	"siteid" text,
	"zipcode" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	CONSTRAINT "sites_country_ck" CHECK ("sites"."country" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "structure_subscriptions" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"usernodeid" uuid NOT NULL,
	"sitenodeid" uuid,
	"areanodeid" uuid,
	"equipmentpoolnodeid" uuid,
	CONSTRAINT "structure_subscriptions_target_ck" CHECK (num_nonnulls("structure_subscriptions"."sitenodeid", "structure_subscriptions"."areanodeid", "structure_subscriptions"."equipmentpoolnodeid") = 1)
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"legalentitynodeid" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"usernodeid" uuid,
	CONSTRAINT "feedback_subject_ck" CHECK ("feedback"."subject" in ('general', 'setup', 'operation', 'features', 'other'))
);
--> statement-breakpoint
CREATE TABLE "support_document_categories" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"name" jsonb NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_documents" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"categorynodeid" uuid NOT NULL,
	"title" jsonb NOT NULL,
	"mimetype" text NOT NULL,
	"storagekey" text NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_faqs" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"question" jsonb NOT NULL,
	"answer" jsonb NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "units" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"unitid" text NOT NULL,
	"namespace" text NOT NULL,
	"symbol" text NOT NULL,
	"display_name" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_legalentitynodeid_legal_entities_nodeid_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_infos" ADD CONSTRAINT "billing_infos_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_plannodeid_plans_nodeid_fk" FOREIGN KEY ("plannodeid") REFERENCES "public"."plans"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_orderedbynodeid_users_nodeid_fk" FOREIGN KEY ("orderedbynodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_plannodeid_plans_nodeid_fk" FOREIGN KEY ("plannodeid") REFERENCES "public"."plans"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_chatroomnodeid_chat_rooms_nodeid_fk" FOREIGN KEY ("chatroomnodeid") REFERENCES "public"."chat_rooms"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_members" ADD CONSTRAINT "chat_room_members_chatroomnodeid_chat_rooms_nodeid_fk" FOREIGN KEY ("chatroomnodeid") REFERENCES "public"."chat_rooms"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_members" ADD CONSTRAINT "chat_room_members_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_room_members" ADD CONSTRAINT "chat_room_members_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_notificationnodeid_notifications_nodeid_fk" FOREIGN KEY ("notificationnodeid") REFERENCES "public"."notifications"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_entities" ADD CONSTRAINT "legal_entities_owner_fk" FOREIGN KEY ("ownerlegalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_clients" ADD CONSTRAINT "sync_clients_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_mutations" ADD CONSTRAINT "sync_mutations_clientid_sync_clients_clientid_fk" FOREIGN KEY ("clientid") REFERENCES "public"."sync_clients"("clientid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_types" ADD CONSTRAINT "cost_types_unitnodeid_units_nodeid_fk" FOREIGN KEY ("unitnodeid") REFERENCES "public"."units"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_types" ADD CONSTRAINT "cost_types_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_costtypenodeid_cost_types_nodeid_fk" FOREIGN KEY ("costtypenodeid") REFERENCES "public"."cost_types"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_notificationnodeid_notifications_nodeid_fk" FOREIGN KEY ("notificationnodeid") REFERENCES "public"."notifications"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_reportnodeid_reports_nodeid_fk" FOREIGN KEY ("reportnodeid") REFERENCES "public"."reports"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_maintenancetasknodeid_maintenance_tasks_nodeid_fk" FOREIGN KEY ("maintenancetasknodeid") REFERENCES "public"."maintenance_tasks"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "costs" ADD CONSTRAINT "costs_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_specifier_attachment_categories_categoryid_fk" FOREIGN KEY ("specifier") REFERENCES "public"."attachment_categories"("categoryid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_filenodeid_files_nodeid_fk" FOREIGN KEY ("filenodeid") REFERENCES "public"."files"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_createdbynodeid_users_nodeid_fk" FOREIGN KEY ("createdbynodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counter_readings" ADD CONSTRAINT "counter_readings_counternodeid_counters_nodeid_fk" FOREIGN KEY ("counternodeid") REFERENCES "public"."counters"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counter_readings" ADD CONSTRAINT "counter_readings_createdbynodeid_users_nodeid_fk" FOREIGN KEY ("createdbynodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counter_readings" ADD CONSTRAINT "counter_readings_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counter_types" ADD CONSTRAINT "counter_types_unitnodeid_units_nodeid_fk" FOREIGN KEY ("unitnodeid") REFERENCES "public"."units"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counter_types" ADD CONSTRAINT "counter_types_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counters" ADD CONSTRAINT "counters_equipmentnodeid_equipment_nodeid_fk" FOREIGN KEY ("equipmentnodeid") REFERENCES "public"."equipment"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counters" ADD CONSTRAINT "counters_countertypenodeid_counter_types_nodeid_fk" FOREIGN KEY ("countertypenodeid") REFERENCES "public"."counter_types"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "counters" ADD CONSTRAINT "counters_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_categories" ADD CONSTRAINT "maintenance_categories_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_task_templates" ADD CONSTRAINT "maintenance_task_templates_categorynodeid_maintenance_categories_nodeid_fk" FOREIGN KEY ("categorynodeid") REFERENCES "public"."maintenance_categories"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_task_templates" ADD CONSTRAINT "maintenance_task_templates_equipmenttypenodeid_equipment_types_nodeid_fk" FOREIGN KEY ("equipmenttypenodeid") REFERENCES "public"."equipment_types"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_task_templates" ADD CONSTRAINT "maintenance_task_templates_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_tasks" ADD CONSTRAINT "maintenance_tasks_triggeringcounternodeid_counters_nodeid_fk" FOREIGN KEY ("triggeringcounternodeid") REFERENCES "public"."counters"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_tasks" ADD CONSTRAINT "maintenance_tasks_categorynodeid_maintenance_categories_nodeid_fk" FOREIGN KEY ("categorynodeid") REFERENCES "public"."maintenance_categories"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_tasks" ADD CONSTRAINT "maintenance_tasks_equipmentnodeid_equipment_nodeid_fk" FOREIGN KEY ("equipmentnodeid") REFERENCES "public"."equipment"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "maintenance_tasks" ADD CONSTRAINT "maintenance_tasks_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_assignments" ADD CONSTRAINT "notification_assignments_notificationnodeid_notifications_nodeid_fk" FOREIGN KEY ("notificationnodeid") REFERENCES "public"."notifications"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_assignments" ADD CONSTRAINT "notification_assignments_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_assignments" ADD CONSTRAINT "notification_assignments_assignedbynodeid_users_nodeid_fk" FOREIGN KEY ("assignedbynodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_assignments" ADD CONSTRAINT "notification_assignments_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_equipmentnodeid_equipment_nodeid_fk" FOREIGN KEY ("equipmentnodeid") REFERENCES "public"."equipment"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_maintenancetasknodeid_maintenance_tasks_nodeid_fk" FOREIGN KEY ("maintenancetasknodeid") REFERENCES "public"."maintenance_tasks"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_notificationnodeid_notifications_nodeid_fk" FOREIGN KEY ("notificationnodeid") REFERENCES "public"."notifications"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_authorsignatureimagefilenodeid_files_nodeid_fk" FOREIGN KEY ("authorsignatureimagefilenodeid") REFERENCES "public"."files"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faqs" ADD CONSTRAINT "faqs_equipmentnodeid_equipment_nodeid_fk" FOREIGN KEY ("equipmentnodeid") REFERENCES "public"."equipment"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faqs" ADD CONSTRAINT "faqs_equipmenttypenodeid_equipment_types_nodeid_fk" FOREIGN KEY ("equipmenttypenodeid") REFERENCES "public"."equipment_types"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faqs" ADD CONSTRAINT "faqs_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faqs" ADD CONSTRAINT "faqs_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_workflownodeid_workflows_nodeid_fk" FOREIGN KEY ("workflownodeid") REFERENCES "public"."workflows"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_steps" ADD CONSTRAINT "workflow_steps_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_notificationnodeid_notifications_nodeid_fk" FOREIGN KEY ("notificationnodeid") REFERENCES "public"."notifications"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_maintenancetasknodeid_maintenance_tasks_nodeid_fk" FOREIGN KEY ("maintenancetasknodeid") REFERENCES "public"."maintenance_tasks"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_authornodeid_users_nodeid_fk" FOREIGN KEY ("authornodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_sitenodeid_sites_nodeid_fk" FOREIGN KEY ("sitenodeid") REFERENCES "public"."sites"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_shiftmodelnodeid_shift_models_nodeid_fk" FOREIGN KEY ("shiftmodelnodeid") REFERENCES "public"."shift_models"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "areas" ADD CONSTRAINT "areas_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_manufacturernodeid_legal_entities_nodeid_fk" FOREIGN KEY ("manufacturernodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brands" ADD CONSTRAINT "brands_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_imagefilenodeid_files_nodeid_fk" FOREIGN KEY ("imagefilenodeid") REFERENCES "public"."files"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_typenameplatefilenodeid_files_nodeid_fk" FOREIGN KEY ("typenameplatefilenodeid") REFERENCES "public"."files"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_equipmenttypenodeid_equipment_types_nodeid_fk" FOREIGN KEY ("equipmenttypenodeid") REFERENCES "public"."equipment_types"("nodeid") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_equipmentclassnodeid_equipment_classes_nodeid_fk" FOREIGN KEY ("equipmentclassnodeid") REFERENCES "public"."equipment_classes"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_areanodeid_areas_nodeid_fk" FOREIGN KEY ("areanodeid") REFERENCES "public"."areas"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_equipmentpoolnodeid_equipment_pools_nodeid_fk" FOREIGN KEY ("equipmentpoolnodeid") REFERENCES "public"."equipment_pools"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_shiftmodelnodeid_shift_models_nodeid_fk" FOREIGN KEY ("shiftmodelnodeid") REFERENCES "public"."shift_models"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment" ADD CONSTRAINT "equipment_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_classes" ADD CONSTRAINT "equipment_classes_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_pools" ADD CONSTRAINT "equipment_pools_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD CONSTRAINT "equipment_types_brandnodeid_brands_nodeid_fk" FOREIGN KEY ("brandnodeid") REFERENCES "public"."brands"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equipment_types" ADD CONSTRAINT "equipment_types_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shift_models" ADD CONSTRAINT "shift_models_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_shiftmodelnodeid_shift_models_nodeid_fk" FOREIGN KEY ("shiftmodelnodeid") REFERENCES "public"."shift_models"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shifts" ADD CONSTRAINT "shifts_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structure_subscriptions" ADD CONSTRAINT "structure_subscriptions_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structure_subscriptions" ADD CONSTRAINT "structure_subscriptions_sitenodeid_sites_nodeid_fk" FOREIGN KEY ("sitenodeid") REFERENCES "public"."sites"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structure_subscriptions" ADD CONSTRAINT "structure_subscriptions_areanodeid_areas_nodeid_fk" FOREIGN KEY ("areanodeid") REFERENCES "public"."areas"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structure_subscriptions" ADD CONSTRAINT "structure_subscriptions_equipmentpoolnodeid_equipment_pools_nodeid_fk" FOREIGN KEY ("equipmentpoolnodeid") REFERENCES "public"."equipment_pools"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "structure_subscriptions" ADD CONSTRAINT "structure_subscriptions_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_usernodeid_users_nodeid_fk" FOREIGN KEY ("usernodeid") REFERENCES "public"."users"("nodeid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_documents" ADD CONSTRAINT "support_documents_categorynodeid_support_document_categories_nodeid_fk" FOREIGN KEY ("categorynodeid") REFERENCES "public"."support_document_categories"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_tokens_hash_uq" ON "account_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_tokens_user_idx" ON "account_tokens" USING btree ("usernodeid");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe_uq" ON "mail_outbox" USING btree ("dedupekey");--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("nextattemptat") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "billing_infos_le_version_idx" ON "billing_infos" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_infos_le_uq" ON "billing_infos" USING btree ("legalentitynodeid");--> statement-breakpoint
CREATE INDEX "orders_le_version_idx" ON "orders" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_ordernumber_uq" ON "orders" USING btree ("legalentitynodeid","ordernumber");--> statement-breakpoint
CREATE INDEX "orders_plan_idx" ON "orders" USING btree ("plannodeid");--> statement-breakpoint
CREATE UNIQUE INDEX "plans_planid_uq" ON "plans" USING btree ("planid");--> statement-breakpoint
CREATE INDEX "subscriptions_le_version_idx" ON "subscriptions" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_subscriptionid_uq" ON "subscriptions" USING btree ("subscriptionid");--> statement-breakpoint
CREATE INDEX "chat_messages_le_version_idx" ON "chat_messages" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "chat_messages_room_idx" ON "chat_messages" USING btree ("chatroomnodeid","sent");--> statement-breakpoint
CREATE INDEX "chat_room_members_le_version_idx" ON "chat_room_members" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_room_members_uq" ON "chat_room_members" USING btree ("chatroomnodeid","usernodeid");--> statement-breakpoint
CREATE INDEX "chat_room_members_user_idx" ON "chat_room_members" USING btree ("usernodeid");--> statement-breakpoint
CREATE INDEX "chat_rooms_le_version_idx" ON "chat_rooms" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_rooms_notification_uq" ON "chat_rooms" USING btree ("notificationnodeid");--> statement-breakpoint
CREATE UNIQUE INDEX "legal_entities_clientid_uq" ON "legal_entities" USING btree ("clientid");--> statement-breakpoint
CREATE INDEX "legal_entities_owner_version_idx" ON "legal_entities" USING btree ("ownerlegalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_le_profileid_uq" ON "profiles" USING btree ("legalentitynodeid","profileid");--> statement-breakpoint
CREATE INDEX "profiles_le_version_idx" ON "profiles" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_uq" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "tombstones_le_version_idx" ON "tombstones" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_userid_uq" ON "users" USING btree ("userid");--> statement-breakpoint
CREATE INDEX "users_le_idx" ON "users" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "cost_types_le_version_idx" ON "cost_types" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_types_key_uq" ON "cost_types" USING btree ("legalentitynodeid","costtypeid") WHERE "cost_types"."costtypeid" is not null;--> statement-breakpoint
CREATE INDEX "costs_le_version_idx" ON "costs" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "costs_notification_idx" ON "costs" USING btree ("notificationnodeid");--> statement-breakpoint
CREATE INDEX "costs_report_idx" ON "costs" USING btree ("reportnodeid");--> statement-breakpoint
CREATE INDEX "costs_task_idx" ON "costs" USING btree ("maintenancetasknodeid");--> statement-breakpoint
CREATE INDEX "costs_type_idx" ON "costs" USING btree ("costtypenodeid");--> statement-breakpoint
CREATE INDEX "attachments_le_version_idx" ON "attachments" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "attachments_target_idx" ON "attachments" USING btree ("isattachmentof");--> statement-breakpoint
CREATE INDEX "attachments_file_idx" ON "attachments" USING btree ("filenodeid");--> statement-breakpoint
CREATE INDEX "files_le_version_idx" ON "files" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "files_fileid_version_uq" ON "files" USING btree ("fileid","fileversion");--> statement-breakpoint
CREATE UNIQUE INDEX "files_storage_uq" ON "files" USING btree ("bucketid","storagekey");--> statement-breakpoint
CREATE INDEX "files_pending_idx" ON "files" USING btree ("created_at") WHERE "files"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "counter_readings_le_version_idx" ON "counter_readings" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "counter_readings_counter_idx" ON "counter_readings" USING btree ("counternodeid","takenat");--> statement-breakpoint
CREATE INDEX "counter_types_le_version_idx" ON "counter_types" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "counters_le_version_idx" ON "counters" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "counters_equipment_idx" ON "counters" USING btree ("equipmentnodeid");--> statement-breakpoint
CREATE INDEX "counters_type_idx" ON "counters" USING btree ("countertypenodeid");--> statement-breakpoint
CREATE INDEX "maintenance_categories_le_version_idx" ON "maintenance_categories" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "maintenance_task_templates_le_version_idx" ON "maintenance_task_templates" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "maintenance_tasks_le_version_idx" ON "maintenance_tasks" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "maintenance_tasks_taskid_uq" ON "maintenance_tasks" USING btree ("legalentitynodeid","maintenancetaskid");--> statement-breakpoint
CREATE INDEX "maintenance_tasks_equipment_idx" ON "maintenance_tasks" USING btree ("equipmentnodeid");--> statement-breakpoint
CREATE INDEX "maintenance_tasks_nextdue_idx" ON "maintenance_tasks" USING btree ("nextdueat") WHERE "maintenance_tasks"."nextdueat" is not null;--> statement-breakpoint
CREATE INDEX "notification_assignments_le_version_idx" ON "notification_assignments" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_assignments_uq" ON "notification_assignments" USING btree ("notificationnodeid","usernodeid");--> statement-breakpoint
CREATE INDEX "notification_assignments_user_idx" ON "notification_assignments" USING btree ("usernodeid");--> statement-breakpoint
CREATE INDEX "notifications_le_version_idx" ON "notifications" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "notifications_equipment_idx" ON "notifications" USING btree ("equipmentnodeid","created");--> statement-breakpoint
CREATE INDEX "notifications_status_idx" ON "notifications" USING btree ("legalentitynodeid","status","created");--> statement-breakpoint
CREATE INDEX "notifications_author_idx" ON "notifications" USING btree ("authornodeid");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_task_due_uq" ON "notifications" USING btree ("maintenancetasknodeid","dueuntil") WHERE "notifications"."maintenancetasknodeid" is not null;--> statement-breakpoint
CREATE INDEX "reports_le_version_idx" ON "reports" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "reports_notification_idx" ON "reports" USING btree ("notificationnodeid","created");--> statement-breakpoint
CREATE INDEX "faqs_le_version_idx" ON "faqs" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "faqs_equipment_idx" ON "faqs" USING btree ("equipmentnodeid");--> statement-breakpoint
CREATE INDEX "faqs_equipment_type_idx" ON "faqs" USING btree ("equipmenttypenodeid");--> statement-breakpoint
CREATE INDEX "workflow_steps_le_version_idx" ON "workflow_steps" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "workflow_steps_workflow_idx" ON "workflow_steps" USING btree ("workflownodeid","position");--> statement-breakpoint
CREATE INDEX "workflows_le_version_idx" ON "workflows" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "workflows_notification_idx" ON "workflows" USING btree ("notificationnodeid");--> statement-breakpoint
CREATE INDEX "workflows_task_idx" ON "workflows" USING btree ("maintenancetasknodeid");--> statement-breakpoint
CREATE INDEX "areas_le_version_idx" ON "areas" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "areas_site_idx" ON "areas" USING btree ("sitenodeid");--> statement-breakpoint
CREATE INDEX "brands_le_version_idx" ON "brands" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "brands_manufacturer_idx" ON "brands" USING btree ("manufacturernodeid");--> statement-breakpoint
CREATE INDEX "equipment_le_version_idx" ON "equipment" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "equipment_area_idx" ON "equipment" USING btree ("areanodeid");--> statement-breakpoint
CREATE INDEX "equipment_pool_idx" ON "equipment" USING btree ("equipmentpoolnodeid");--> statement-breakpoint
CREATE INDEX "equipment_type_idx" ON "equipment" USING btree ("equipmenttypenodeid");--> statement-breakpoint
CREATE INDEX "equipment_classes_le_version_idx" ON "equipment_classes" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "equipment_pools_le_version_idx" ON "equipment_pools" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "equipment_types_le_version_idx" ON "equipment_types" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "equipment_types_brand_idx" ON "equipment_types" USING btree ("brandnodeid");--> statement-breakpoint
CREATE INDEX "shift_models_le_version_idx" ON "shift_models" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "shifts_le_version_idx" ON "shifts" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "shifts_model_idx" ON "shifts" USING btree ("shiftmodelnodeid","position");--> statement-breakpoint
CREATE INDEX "sites_le_version_idx" ON "sites" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "structure_subscriptions_le_version_idx" ON "structure_subscriptions" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE UNIQUE INDEX "structure_subscriptions_site_uq" ON "structure_subscriptions" USING btree ("usernodeid","sitenodeid") WHERE "structure_subscriptions"."sitenodeid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "structure_subscriptions_area_uq" ON "structure_subscriptions" USING btree ("usernodeid","areanodeid") WHERE "structure_subscriptions"."areanodeid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "structure_subscriptions_pool_uq" ON "structure_subscriptions" USING btree ("usernodeid","equipmentpoolnodeid") WHERE "structure_subscriptions"."equipmentpoolnodeid" is not null;--> statement-breakpoint
CREATE INDEX "feedback_le_version_idx" ON "feedback" USING btree ("legalentitynodeid","version");--> statement-breakpoint
CREATE INDEX "support_documents_category_idx" ON "support_documents" USING btree ("categorynodeid","position");--> statement-breakpoint
CREATE UNIQUE INDEX "units_namespace_unitid_uq" ON "units" USING btree ("namespace","unitid");
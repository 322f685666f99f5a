-- MLflow PostgreSQL tracking schema, alembic version c9d4e5f6a7b8, derived by resources/mlflow_postgresql_schema.py
-- (sqlite3 .schema of ../shared/fixtures/mlflow/mlflow_empty_c9d4e5f6a7b8.db). Do not edit by hand.
CREATE TABLE experiments (
	experiment_id SERIAL NOT NULL, 
	name VARCHAR(256) NOT NULL, 
	artifact_location VARCHAR(256), 
	lifecycle_stage VARCHAR(32), creation_time BIGINT, last_update_time BIGINT, 
	CONSTRAINT experiment_pk PRIMARY KEY (experiment_id), 
	CONSTRAINT experiments_lifecycle_stage CHECK (lifecycle_stage IN ('active', 'deleted')), 
	UNIQUE (name)
);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
CREATE TABLE experiment_tags (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(5000), 
	experiment_id INTEGER NOT NULL, 
	CONSTRAINT experiment_tag_pk PRIMARY KEY ("key", experiment_id), 
	FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id)
);
CREATE TABLE registered_models (
	name VARCHAR(256) NOT NULL, 
	creation_time BIGINT, 
	last_updated_time BIGINT, 
	description VARCHAR(5000), 
	CONSTRAINT registered_model_pk PRIMARY KEY (name), 
	UNIQUE (name)
);
CREATE TABLE runs (
	run_uuid VARCHAR(32) NOT NULL, 
	name VARCHAR(250), 
	source_type VARCHAR(20), 
	source_name VARCHAR(500), 
	entry_point_name VARCHAR(50), 
	user_id VARCHAR(256), 
	status VARCHAR(9), 
	start_time BIGINT, 
	end_time BIGINT, 
	source_version VARCHAR(50), 
	lifecycle_stage VARCHAR(20), 
	artifact_uri VARCHAR(200), 
	experiment_id INTEGER, deleted_time BIGINT, 
	CONSTRAINT run_pk PRIMARY KEY (run_uuid), 
	CONSTRAINT runs_lifecycle_stage CHECK (lifecycle_stage IN ('active', 'deleted')), 
	CONSTRAINT source_type CHECK (source_type IN ('NOTEBOOK', 'JOB', 'LOCAL', 'UNKNOWN', 'PROJECT')), 
	FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id), 
	CHECK (status IN ('SCHEDULED', 'FAILED', 'FINISHED', 'RUNNING', 'KILLED'))
);
CREATE TABLE registered_model_tags (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(5000), 
	name VARCHAR(256) NOT NULL, 
	CONSTRAINT registered_model_tag_pk PRIMARY KEY ("key", name), 
	FOREIGN KEY(name) REFERENCES registered_models (name) ON UPDATE cascade
);
CREATE TABLE model_versions (
	name VARCHAR(256) NOT NULL, 
	version INTEGER NOT NULL, 
	creation_time BIGINT, 
	last_updated_time BIGINT, 
	description VARCHAR(5000), 
	user_id VARCHAR(256), 
	current_stage VARCHAR(20), 
	source VARCHAR(500), 
	run_id VARCHAR(32), 
	status VARCHAR(20), 
	status_message VARCHAR(500), 
	run_link VARCHAR(500), storage_location VARCHAR(500), 
	CONSTRAINT model_version_pk PRIMARY KEY (name, version), 
	FOREIGN KEY(name) REFERENCES registered_models (name) ON UPDATE CASCADE
);
CREATE TABLE latest_metrics (
	"key" VARCHAR(250) NOT NULL, 
	value FLOAT(53) NOT NULL, 
	timestamp BIGINT, 
	step BIGINT NOT NULL, 
	is_nan BOOLEAN NOT NULL, 
	run_uuid VARCHAR(32) NOT NULL, 
	CONSTRAINT latest_metric_pk PRIMARY KEY ("key", run_uuid), 
	FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
);
CREATE TABLE metrics (
	"key" VARCHAR(250) NOT NULL, 
	value FLOAT(53) NOT NULL, 
	timestamp BIGINT NOT NULL, 
	run_uuid VARCHAR(32) NOT NULL, 
	step BIGINT DEFAULT '0' NOT NULL, 
	is_nan BOOLEAN DEFAULT false NOT NULL, 
	CONSTRAINT metric_pk PRIMARY KEY ("key", timestamp, step, run_uuid, value, is_nan), 
	FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
);
CREATE INDEX index_metrics_run_uuid ON metrics (run_uuid);
CREATE INDEX index_latest_metrics_run_uuid ON latest_metrics (run_uuid);
CREATE TABLE registered_model_aliases (
	alias VARCHAR(256) NOT NULL, 
	version INTEGER NOT NULL, 
	name VARCHAR(256) NOT NULL, 
	CONSTRAINT registered_model_alias_pk PRIMARY KEY (name, alias), 
	CONSTRAINT registered_model_alias_name_fkey FOREIGN KEY(name) REFERENCES registered_models (name) ON DELETE cascade ON UPDATE cascade
);
CREATE TABLE inputs (
	input_uuid VARCHAR(36) NOT NULL, 
	source_type VARCHAR(36) NOT NULL, 
	source_id VARCHAR(36) NOT NULL, 
	destination_type VARCHAR(36) NOT NULL, 
	destination_id VARCHAR(36) NOT NULL, step BIGINT DEFAULT '0' NOT NULL, 
	CONSTRAINT inputs_pk PRIMARY KEY (source_type, source_id, destination_type, destination_id)
);
CREATE INDEX index_inputs_input_uuid ON inputs (input_uuid);
CREATE INDEX index_inputs_destination_type_destination_id_source_type ON inputs (destination_type, destination_id, source_type);
CREATE TABLE input_tags (
	input_uuid VARCHAR(36) NOT NULL, 
	name VARCHAR(255) NOT NULL, 
	value VARCHAR(500) NOT NULL, 
	CONSTRAINT input_tags_pk PRIMARY KEY (input_uuid, name)
);
CREATE TABLE params (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(8000) NOT NULL, 
	run_uuid VARCHAR(32) NOT NULL, 
	CONSTRAINT param_pk PRIMARY KEY ("key", run_uuid), 
	FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
);
CREATE INDEX index_params_run_uuid ON params (run_uuid);
CREATE TABLE trace_info (
	request_id VARCHAR(50) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	timestamp_ms BIGINT NOT NULL, 
	execution_time_ms BIGINT, 
	status VARCHAR(50) NOT NULL, client_request_id VARCHAR(50), request_preview VARCHAR(1000), response_preview VARCHAR(1000), 
	CONSTRAINT trace_info_pk PRIMARY KEY (request_id), 
	CONSTRAINT fk_trace_info_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id)
);
CREATE INDEX index_trace_info_experiment_id_timestamp_ms ON trace_info (experiment_id, timestamp_ms);
CREATE TABLE trace_tags (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(8000), 
	request_id VARCHAR(50) NOT NULL, 
	CONSTRAINT trace_tag_pk PRIMARY KEY ("key", request_id), 
	CONSTRAINT fk_trace_tags_request_id FOREIGN KEY(request_id) REFERENCES trace_info (request_id) ON DELETE CASCADE
);
CREATE INDEX index_trace_tags_request_id ON trace_tags (request_id);
CREATE TABLE trace_request_metadata (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(8000), 
	request_id VARCHAR(50) NOT NULL, 
	CONSTRAINT trace_request_metadata_pk PRIMARY KEY ("key", request_id), 
	CONSTRAINT fk_trace_request_metadata_request_id FOREIGN KEY(request_id) REFERENCES trace_info (request_id) ON DELETE CASCADE
);
CREATE INDEX index_trace_request_metadata_request_id ON trace_request_metadata (request_id);
CREATE TABLE tags (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(8000), 
	run_uuid VARCHAR(32) NOT NULL, 
	CONSTRAINT tag_pk PRIMARY KEY ("key", run_uuid), 
	FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid)
);
CREATE INDEX index_tags_run_uuid ON tags (run_uuid);
CREATE TABLE datasets (
	dataset_uuid VARCHAR(36) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	name VARCHAR(500) NOT NULL, 
	digest VARCHAR(36) NOT NULL, 
	dataset_source_type VARCHAR(36) NOT NULL, 
	dataset_source TEXT NOT NULL, 
	dataset_schema TEXT, 
	dataset_profile TEXT, 
	CONSTRAINT dataset_pk PRIMARY KEY (experiment_id, name, digest), 
	CONSTRAINT fk_datasets_experiment_id_experiments FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id) ON DELETE CASCADE
);
CREATE INDEX index_datasets_dataset_uuid ON datasets (dataset_uuid);
CREATE INDEX index_datasets_experiment_id_dataset_source_type ON datasets (experiment_id, dataset_source_type);
CREATE TABLE logged_models (
	model_id VARCHAR(36) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	name VARCHAR(500) NOT NULL, 
	artifact_location VARCHAR(1000) NOT NULL, 
	creation_timestamp_ms BIGINT NOT NULL, 
	last_updated_timestamp_ms BIGINT NOT NULL, 
	status INTEGER NOT NULL, 
	lifecycle_stage VARCHAR(32), 
	model_type VARCHAR(500), 
	source_run_id VARCHAR(32), 
	status_message VARCHAR(1000), 
	CONSTRAINT logged_models_pk PRIMARY KEY (model_id), 
	CONSTRAINT logged_models_lifecycle_stage_check CHECK (lifecycle_stage IN ('active', 'deleted')), 
	CONSTRAINT fk_logged_models_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id) ON DELETE CASCADE
);
CREATE TABLE logged_model_metrics (
	model_id VARCHAR(36) NOT NULL, 
	metric_name VARCHAR(500) NOT NULL, 
	metric_timestamp_ms BIGINT NOT NULL, 
	metric_step BIGINT NOT NULL, 
	metric_value FLOAT(53), 
	experiment_id INTEGER NOT NULL, 
	run_id VARCHAR(32) NOT NULL, 
	dataset_uuid VARCHAR(36), 
	dataset_name VARCHAR(500), 
	dataset_digest VARCHAR(36), 
	CONSTRAINT logged_model_metrics_pk PRIMARY KEY (model_id, metric_name, metric_timestamp_ms, metric_step, run_id), 
	CONSTRAINT fk_logged_model_metrics_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id), 
	CONSTRAINT fk_logged_model_metrics_model_id FOREIGN KEY(model_id) REFERENCES logged_models (model_id) ON DELETE CASCADE, 
	CONSTRAINT fk_logged_model_metrics_run_id FOREIGN KEY(run_id) REFERENCES runs (run_uuid) ON DELETE CASCADE
);
CREATE INDEX index_logged_model_metrics_model_id ON logged_model_metrics (model_id);
CREATE TABLE logged_model_params (
	model_id VARCHAR(36) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	param_key VARCHAR(255) NOT NULL, 
	param_value TEXT NOT NULL, 
	CONSTRAINT logged_model_params_pk PRIMARY KEY (model_id, param_key), 
	CONSTRAINT fk_logged_model_params_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id), 
	CONSTRAINT fk_logged_model_params_model_id FOREIGN KEY(model_id) REFERENCES logged_models (model_id) ON DELETE CASCADE
);
CREATE TABLE logged_model_tags (
	model_id VARCHAR(36) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	tag_key VARCHAR(255) NOT NULL, 
	tag_value TEXT NOT NULL, 
	CONSTRAINT logged_model_tags_pk PRIMARY KEY (model_id, tag_key), 
	CONSTRAINT fk_logged_model_tags_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id), 
	CONSTRAINT fk_logged_model_tags_model_id FOREIGN KEY(model_id) REFERENCES logged_models (model_id) ON DELETE CASCADE
);
CREATE TABLE model_version_tags (
	"key" VARCHAR(250) NOT NULL, 
	value TEXT, 
	name VARCHAR(256) NOT NULL, 
	version INTEGER NOT NULL, 
	CONSTRAINT model_version_tag_pk PRIMARY KEY ("key", name, version), 
	FOREIGN KEY(name, version) REFERENCES model_versions (name, version) ON UPDATE CASCADE
);
CREATE TABLE assessments (
	assessment_id VARCHAR(50) NOT NULL, 
	trace_id VARCHAR(50) NOT NULL, 
	name VARCHAR(250) NOT NULL, 
	assessment_type VARCHAR(20) NOT NULL, 
	value TEXT NOT NULL, 
	error TEXT, 
	created_timestamp BIGINT NOT NULL, 
	last_updated_timestamp BIGINT NOT NULL, 
	source_type VARCHAR(50) NOT NULL, 
	source_id VARCHAR(250), 
	run_id VARCHAR(32), 
	span_id VARCHAR(50), 
	rationale TEXT, 
	overrides VARCHAR(50), 
	valid BOOLEAN NOT NULL, 
	assessment_metadata TEXT, 
	CONSTRAINT assessments_pk PRIMARY KEY (assessment_id), 
	CONSTRAINT fk_assessments_trace_id FOREIGN KEY(trace_id) REFERENCES trace_info (request_id) ON DELETE CASCADE
);
CREATE INDEX index_assessments_trace_id_created_timestamp ON assessments (trace_id, created_timestamp);
CREATE INDEX index_assessments_run_id_created_timestamp ON assessments (run_id, created_timestamp);
CREATE INDEX index_assessments_last_updated_timestamp ON assessments (last_updated_timestamp);
CREATE INDEX index_assessments_assessment_type ON assessments (assessment_type);
CREATE TABLE spans (
	trace_id VARCHAR(50) NOT NULL, 
	experiment_id INTEGER NOT NULL, 
	span_id VARCHAR(50) NOT NULL, 
	parent_span_id VARCHAR(50), 
	name TEXT, 
	type VARCHAR(500), 
	status VARCHAR(50) NOT NULL, 
	start_time_unix_nano BIGINT NOT NULL, 
	end_time_unix_nano BIGINT, 
	duration_ns BIGINT GENERATED ALWAYS AS (end_time_unix_nano - start_time_unix_nano) STORED, 
	content TEXT NOT NULL, 
	CONSTRAINT spans_pk PRIMARY KEY (trace_id, span_id), 
	CONSTRAINT fk_spans_trace_id FOREIGN KEY(trace_id) REFERENCES trace_info (request_id) ON DELETE CASCADE, 
	CONSTRAINT fk_spans_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id)
);
CREATE INDEX index_spans_experiment_id ON spans (experiment_id);
CREATE INDEX index_spans_experiment_id_status_type ON spans (experiment_id, status, type);
CREATE INDEX index_spans_experiment_id_type_status ON spans (experiment_id, type, status);
CREATE INDEX index_spans_experiment_id_duration ON spans (experiment_id, duration_ns);
CREATE TABLE entity_associations (
	association_id VARCHAR(36) NOT NULL, 
	source_type VARCHAR(36) NOT NULL, 
	source_id VARCHAR(36) NOT NULL, 
	destination_type VARCHAR(36) NOT NULL, 
	destination_id VARCHAR(36) NOT NULL, 
	created_time BIGINT, 
	CONSTRAINT entity_associations_pk PRIMARY KEY (source_type, source_id, destination_type, destination_id)
);
CREATE INDEX index_entity_associations_association_id ON entity_associations (association_id);
CREATE INDEX index_entity_associations_reverse_lookup ON entity_associations (destination_type, destination_id, source_type, source_id);
CREATE TABLE webhooks (
	webhook_id VARCHAR(256) NOT NULL, 
	name VARCHAR(256) NOT NULL, 
	description VARCHAR(1000), 
	url VARCHAR(500) NOT NULL, 
	status VARCHAR(20) DEFAULT 'ACTIVE' NOT NULL, 
	secret VARCHAR(1000), 
	creation_timestamp BIGINT, 
	last_updated_timestamp BIGINT, 
	deleted_timestamp BIGINT, 
	CONSTRAINT webhook_pk PRIMARY KEY (webhook_id)
);
CREATE INDEX idx_webhooks_status ON webhooks (status);
CREATE INDEX idx_webhooks_name ON webhooks (name);
CREATE TABLE webhook_events (
	webhook_id VARCHAR(256) NOT NULL, 
	entity VARCHAR(50) NOT NULL, 
	action VARCHAR(50) NOT NULL, 
	CONSTRAINT webhook_event_pk PRIMARY KEY (webhook_id, entity, action), 
	FOREIGN KEY(webhook_id) REFERENCES webhooks (webhook_id) ON DELETE cascade
);
CREATE INDEX idx_webhook_events_entity ON webhook_events (entity);
CREATE INDEX idx_webhook_events_action ON webhook_events (action);
CREATE INDEX idx_webhook_events_entity_action ON webhook_events (entity, action);
CREATE TABLE scorers (
	experiment_id INTEGER NOT NULL, 
	scorer_name VARCHAR(256) NOT NULL, 
	scorer_id VARCHAR(36) NOT NULL, 
	CONSTRAINT scorer_pk PRIMARY KEY (scorer_id), 
	CONSTRAINT fk_scorers_experiment_id FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id) ON DELETE CASCADE
);
CREATE TABLE scorer_versions (
	scorer_id VARCHAR(36) NOT NULL, 
	scorer_version INTEGER NOT NULL, 
	serialized_scorer TEXT NOT NULL, 
	creation_time BIGINT, 
	CONSTRAINT scorer_version_pk PRIMARY KEY (scorer_id, scorer_version), 
	CONSTRAINT fk_scorer_versions_scorer_id FOREIGN KEY(scorer_id) REFERENCES scorers (scorer_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX index_scorers_experiment_id_scorer_name ON scorers (experiment_id, scorer_name);
CREATE INDEX index_scorer_versions_scorer_id ON scorer_versions (scorer_id);
CREATE TABLE evaluation_datasets (
	dataset_id VARCHAR(36) NOT NULL, 
	name VARCHAR(255) NOT NULL, 
	schema TEXT, 
	profile TEXT, 
	digest VARCHAR(64), 
	created_time BIGINT, 
	last_update_time BIGINT, 
	created_by VARCHAR(255), 
	last_updated_by VARCHAR(255), 
	CONSTRAINT evaluation_datasets_pk PRIMARY KEY (dataset_id)
);
CREATE INDEX index_evaluation_datasets_name ON evaluation_datasets (name);
CREATE INDEX index_evaluation_datasets_created_time ON evaluation_datasets (created_time);
CREATE TABLE evaluation_dataset_tags (
	dataset_id VARCHAR(36) NOT NULL, 
	"key" VARCHAR(255) NOT NULL, 
	value VARCHAR(5000), 
	CONSTRAINT evaluation_dataset_tags_pk PRIMARY KEY (dataset_id, "key"), 
	CONSTRAINT fk_evaluation_dataset_tags_dataset_id FOREIGN KEY(dataset_id) REFERENCES evaluation_datasets (dataset_id) ON DELETE CASCADE
);
CREATE INDEX index_evaluation_dataset_tags_dataset_id ON evaluation_dataset_tags (dataset_id);
CREATE TABLE evaluation_dataset_records (
	dataset_record_id VARCHAR(36) NOT NULL, 
	dataset_id VARCHAR(36) NOT NULL, 
	inputs JSON NOT NULL, 
	expectations JSON, 
	tags JSON, 
	source JSON, 
	source_id VARCHAR(36), 
	source_type VARCHAR(255), 
	created_time BIGINT, 
	last_update_time BIGINT, 
	created_by VARCHAR(255), 
	last_updated_by VARCHAR(255), 
	input_hash VARCHAR(64) NOT NULL, outputs JSON, 
	CONSTRAINT evaluation_dataset_records_pk PRIMARY KEY (dataset_record_id), 
	CONSTRAINT fk_evaluation_dataset_records_dataset_id FOREIGN KEY(dataset_id) REFERENCES evaluation_datasets (dataset_id) ON DELETE CASCADE, 
	CONSTRAINT unique_dataset_input UNIQUE (dataset_id, input_hash)
);
CREATE INDEX index_evaluation_dataset_records_dataset_id ON evaluation_dataset_records (dataset_id);
CREATE TABLE secrets (
	secret_id VARCHAR(36) NOT NULL, 
	secret_name VARCHAR(255) NOT NULL, 
	encrypted_value BYTEA NOT NULL, 
	wrapped_dek BYTEA NOT NULL, 
	kek_version INTEGER NOT NULL, 
	masked_value VARCHAR(500) NOT NULL, 
	provider VARCHAR(64), 
	auth_config TEXT, 
	description TEXT, 
	created_by VARCHAR(255), 
	created_at BIGINT NOT NULL, 
	last_updated_by VARCHAR(255), 
	last_updated_at BIGINT NOT NULL, 
	CONSTRAINT secrets_pk PRIMARY KEY (secret_id)
);
CREATE UNIQUE INDEX unique_secret_name ON secrets (secret_name);
CREATE TABLE endpoints (
	endpoint_id VARCHAR(36) NOT NULL, 
	name VARCHAR(255), 
	created_by VARCHAR(255), 
	created_at BIGINT NOT NULL, 
	last_updated_by VARCHAR(255), 
	last_updated_at BIGINT NOT NULL, routing_strategy VARCHAR(64), fallback_config_json TEXT, 
	CONSTRAINT endpoints_pk PRIMARY KEY (endpoint_id)
);
CREATE UNIQUE INDEX unique_endpoint_name ON endpoints (name);
CREATE TABLE model_definitions (
	model_definition_id VARCHAR(36) NOT NULL, 
	name VARCHAR(255) NOT NULL, 
	secret_id VARCHAR(36), 
	provider VARCHAR(64) NOT NULL, 
	model_name VARCHAR(256) NOT NULL, 
	created_by VARCHAR(255), 
	created_at BIGINT NOT NULL, 
	last_updated_by VARCHAR(255), 
	last_updated_at BIGINT NOT NULL, 
	CONSTRAINT model_definitions_pk PRIMARY KEY (model_definition_id), 
	CONSTRAINT fk_model_definitions_secret_id FOREIGN KEY(secret_id) REFERENCES secrets (secret_id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX unique_model_definition_name ON model_definitions (name);
CREATE INDEX index_model_definitions_secret_id ON model_definitions (secret_id);
CREATE INDEX index_model_definitions_provider ON model_definitions (provider);
CREATE TABLE endpoint_model_mappings (
	mapping_id VARCHAR(36) NOT NULL, 
	endpoint_id VARCHAR(36) NOT NULL, 
	model_definition_id VARCHAR(36) NOT NULL, 
	weight FLOAT(53) NOT NULL, 
	created_by VARCHAR(255), 
	created_at BIGINT NOT NULL, linkage_type VARCHAR(64) DEFAULT 'PRIMARY' NOT NULL, fallback_order INTEGER, 
	CONSTRAINT endpoint_model_mappings_pk PRIMARY KEY (mapping_id), 
	CONSTRAINT fk_endpoint_model_mappings_endpoint_id FOREIGN KEY(endpoint_id) REFERENCES endpoints (endpoint_id) ON DELETE CASCADE, 
	CONSTRAINT fk_endpoint_model_mappings_model_definition_id FOREIGN KEY(model_definition_id) REFERENCES model_definitions (model_definition_id)
);
CREATE INDEX index_endpoint_model_mappings_endpoint_id ON endpoint_model_mappings (endpoint_id);
CREATE INDEX index_endpoint_model_mappings_model_definition_id ON endpoint_model_mappings (model_definition_id);
CREATE TABLE endpoint_bindings (
	endpoint_id VARCHAR(36) NOT NULL, 
	resource_type VARCHAR(50) NOT NULL, 
	resource_id VARCHAR(255) NOT NULL, 
	created_at BIGINT NOT NULL, 
	created_by VARCHAR(255), 
	last_updated_at BIGINT NOT NULL, 
	last_updated_by VARCHAR(255), 
	CONSTRAINT endpoint_bindings_pk PRIMARY KEY (endpoint_id, resource_type, resource_id), 
	CONSTRAINT fk_endpoint_bindings_endpoint_id FOREIGN KEY(endpoint_id) REFERENCES endpoints (endpoint_id) ON DELETE CASCADE
);
CREATE TABLE endpoint_tags (
	"key" VARCHAR(250) NOT NULL, 
	value VARCHAR(5000), 
	endpoint_id VARCHAR(36) NOT NULL, 
	CONSTRAINT endpoint_tag_pk PRIMARY KEY ("key", endpoint_id), 
	CONSTRAINT fk_endpoint_tags_endpoint_id FOREIGN KEY(endpoint_id) REFERENCES endpoints (endpoint_id) ON DELETE CASCADE
);
CREATE INDEX index_endpoint_tags_endpoint_id ON endpoint_tags (endpoint_id);
CREATE FUNCTION prevent_secrets_aad_mutation_fn() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'secret_id and secret_name are immutable (used as AAD in encryption)';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER prevent_secrets_aad_mutation
BEFORE UPDATE ON secrets
FOR EACH ROW
WHEN (OLD.secret_id != NEW.secret_id OR OLD.secret_name != NEW.secret_name)
EXECUTE FUNCTION prevent_secrets_aad_mutation_fn();
CREATE TABLE trace_metrics (
	request_id VARCHAR(50) NOT NULL, 
	"key" VARCHAR(250) NOT NULL, 
	value FLOAT(53), 
	CONSTRAINT trace_metrics_pk PRIMARY KEY (request_id, "key"), 
	CONSTRAINT fk_trace_metrics_request_id FOREIGN KEY(request_id) REFERENCES trace_info (request_id) ON DELETE CASCADE
);
CREATE INDEX index_trace_metrics_request_id ON trace_metrics (request_id);
CREATE TABLE jobs (
	id VARCHAR(36) NOT NULL, 
	creation_time BIGINT NOT NULL, 
	job_name VARCHAR(500) NOT NULL, 
	params TEXT NOT NULL, 
	timeout FLOAT(53), 
	status INTEGER NOT NULL, 
	result TEXT, 
	retry_count INTEGER NOT NULL, 
	last_update_time BIGINT NOT NULL, 
	CONSTRAINT jobs_pk PRIMARY KEY (id)
);
CREATE INDEX index_jobs_name_status_creation_time ON jobs (job_name, status, creation_time);
CREATE UNIQUE INDEX unique_endpoint_model_linkage_mapping ON endpoint_model_mappings (endpoint_id, model_definition_id, linkage_type);

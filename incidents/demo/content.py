"""Demo content for the status page: components, metrics, incidents, postmortems, maintenance.

Plain data only. Every translatable value is a dict {language_code: text}; texts are Markdown.
Times are relative ("days_ago", "minutes_after_start", "days_from_now") so that a loader can
place them around the moment it runs. Clock times mentioned inside texts are UTC and match the
start times given here.
"""

GROUPS = [
    {
        "slug": "core-api",
        "position": 1,
        "name": {
            "en": "Core API",
            "ru": "Основной API",
            "es": "API principal",
            "nb": "Kjerne-API",
        },
        "description": {
            "en": "The public REST API, sign-in and the web dashboard.",
            "ru": "Публичный REST API, вход в систему и веб-панель.",
            "es": "La API REST pública, el inicio de sesión y el panel web.",
            "nb": "Det offentlige REST-API-et, innlogging og nettdashbordet.",
        },
        "components": [
            {
                "slug": "public-api",
                "name": {
                    "en": "Public API",
                    "ru": "Публичный API",
                    "es": "API pública",
                    "nb": "Offentlig API",
                },
                "description": {
                    "en": "REST endpoints for orders, customers, payments and reports.",
                    "ru": "REST-эндпоинты для заказов, клиентов, платежей и отчётов.",
                    "es": "Endpoints REST de pedidos, clientes, pagos e informes.",
                    "nb": "REST-endepunkter for ordrer, kunder, betalinger og rapporter.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "latency-p95",
                        "name": {
                            "en": "API latency (p95)",
                            "ru": "Задержка API (p95)",
                            "es": "Latencia de la API (p95)",
                            "nb": "API-forsinkelse (p95)",
                        },
                        "kind": "latency",
                        "unit": "ms",
                        "precision": 0,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 800.0,
                        "partial": 2000.0,
                        "major": 5000.0,
                        "baseline": 180.0,
                        "noise": 35.0,
                    },
                    {
                        "slug": "error-rate",
                        "name": {
                            "en": "Error rate",
                            "ru": "Доля ошибок",
                            "es": "Tasa de errores",
                            "nb": "Feilrate",
                        },
                        "kind": "ratio",
                        "unit": "%",
                        "precision": 2,
                        "aggregation": "mean",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 1.0,
                        "partial": 5.0,
                        "major": 20.0,
                        "baseline": 0.08,
                        "noise": 0.04,
                    },
                ],
            },
            {
                "slug": "authentication",
                "name": {
                    "en": "Authentication",
                    "ru": "Аутентификация",
                    "es": "Autenticación",
                    "nb": "Autentisering",
                },
                "description": {
                    "en": "Sign-in, single sign-on and OAuth token issuing.",
                    "ru": "Вход, единый вход (SSO) и выдача OAuth-токенов.",
                    "es": "Inicio de sesión, inicio de sesión único (SSO) y emisión de tokens OAuth.",
                    "nb": "Innlogging, enkel pålogging (SSO) og utstedelse av OAuth-tokens.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "token-latency",
                        "name": {
                            "en": "Token endpoint latency (p95)",
                            "ru": "Задержка выдачи токенов (p95)",
                            "es": "Latencia del endpoint de tokens (p95)",
                            "nb": "Forsinkelse for token-endepunktet (p95)",
                        },
                        "kind": "latency",
                        "unit": "ms",
                        "precision": 0,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 600.0,
                        "partial": 1500.0,
                        "major": 4000.0,
                        "baseline": 95.0,
                        "noise": 25.0,
                    },
                ],
            },
            {
                "slug": "dashboard",
                "name": {
                    "en": "Dashboard",
                    "ru": "Веб-панель",
                    "es": "Panel de control",
                    "nb": "Dashbord",
                },
                "description": {
                    "en": "The web app where teams manage orders, reports and settings.",
                    "ru": "Веб-приложение для работы с заказами, отчётами и настройками.",
                    "es": "La aplicación web donde los equipos gestionan pedidos, informes y ajustes.",
                    "nb": "Nettappen der teamene håndterer ordrer, rapporter og innstillinger.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "page-load",
                        "name": {
                            "en": "Page load time (p95)",
                            "ru": "Время загрузки страниц (p95)",
                            "es": "Tiempo de carga de página (p95)",
                            "nb": "Lastetid for sider (p95)",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 1,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 2.5,
                        "partial": 6.0,
                        "major": 15.0,
                        "baseline": 0.9,
                        "noise": 0.25,
                    },
                ],
            },
        ],
    },
    {
        "slug": "webhooks-events",
        "position": 2,
        "name": {
            "en": "Webhooks and events",
            "ru": "Вебхуки и события",
            "es": "Webhooks y eventos",
            "nb": "Webhooks og hendelser",
        },
        "description": {
            "en": "Outgoing webhooks and the real-time event stream.",
            "ru": "Исходящие вебхуки и поток событий в реальном времени.",
            "es": "Webhooks salientes y el flujo de eventos en tiempo real.",
            "nb": "Utgående webhooks og hendelsesstrømmen i sanntid.",
        },
        "components": [
            {
                "slug": "webhook-delivery",
                "name": {
                    "en": "Webhook delivery",
                    "ru": "Доставка вебхуков",
                    "es": "Entrega de webhooks",
                    "nb": "Levering av webhooks",
                },
                "description": {
                    "en": "Delivery of events to customer endpoints, including retries.",
                    "ru": "Доставка событий на эндпоинты клиентов, включая повторные попытки.",
                    "es": "Entrega de eventos a los endpoints de los clientes, incluidos los reintentos.",
                    "nb": "Levering av hendelser til kundenes endepunkter, inkludert nye forsøk.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "delivery-delay",
                        "name": {
                            "en": "Webhook delivery delay",
                            "ru": "Задержка доставки вебхуков",
                            "es": "Retraso en la entrega de webhooks",
                            "nb": "Forsinkelse i webhook-levering",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 1,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 60.0,
                        "partial": 300.0,
                        "major": 900.0,
                        "baseline": 1.5,
                        "noise": 0.5,
                    },
                ],
            },
            {
                "slug": "event-stream",
                "name": {
                    "en": "Event stream",
                    "ru": "Поток событий",
                    "es": "Flujo de eventos",
                    "nb": "Hendelsesstrøm",
                },
                "description": {
                    "en": "Server-sent events and the streaming API for live updates.",
                    "ru": "Server-sent events и потоковый API для обновлений в реальном времени.",
                    "es": "Server-sent events y la API de streaming para actualizaciones en directo.",
                    "nb": "Server-sent events og strømme-API-et for oppdateringer i sanntid.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "stream-lag",
                        "name": {
                            "en": "Event stream lag",
                            "ru": "Отставание потока событий",
                            "es": "Retraso del flujo de eventos",
                            "nb": "Etterslep i hendelsesstrømmen",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 1,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 10.0,
                        "partial": 60.0,
                        "major": 300.0,
                        "baseline": 0.6,
                        "noise": 0.2,
                    },
                ],
            },
        ],
    },
    {
        "slug": "messaging",
        "position": 3,
        "name": {
            "en": "Messaging",
            "ru": "Сообщения",
            "es": "Mensajería",
            "nb": "Meldinger",
        },
        "description": {
            "en": "Email and SMS sent on behalf of our customers.",
            "ru": "Письма и SMS, которые мы отправляем от имени клиентов.",
            "es": "Correos electrónicos y SMS que enviamos en nombre de nuestros clientes.",
            "nb": "E-post og SMS som vi sender på vegne av kundene våre.",
        },
        "components": [
            {
                "slug": "email-delivery",
                "name": {
                    "en": "Email delivery",
                    "ru": "Доставка писем",
                    "es": "Entrega de correo electrónico",
                    "nb": "E-postlevering",
                },
                "description": {
                    "en": (
                        "Transactional and bulk email, from acceptance to handoff to the recipient's mail "
                        "server."
                    ),
                    "ru": (
                        "Транзакционные письма и рассылки — от приёма до передачи почтовому серверу "
                        "получателя."
                    ),
                    "es": (
                        "Correo transaccional y masivo, desde que lo aceptamos hasta que lo entregamos al "
                        "servidor del destinatario."
                    ),
                    "nb": (
                        "Transaksjonell e-post og masseutsendelser, fra mottak til overlevering til "
                        "mottakerens e-postserver."
                    ),
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "delivery-delay",
                        "name": {
                            "en": "Email delivery delay",
                            "ru": "Задержка доставки писем",
                            "es": "Retraso en la entrega de correo",
                            "nb": "Forsinkelse i e-postlevering",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 0,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 120.0,
                        "partial": 600.0,
                        "major": 1800.0,
                        "baseline": 8.0,
                        "noise": 3.0,
                    },
                ],
            },
            {
                "slug": "sms-delivery",
                "name": {
                    "en": "SMS delivery",
                    "ru": "Доставка SMS",
                    "es": "Entrega de SMS",
                    "nb": "SMS-levering",
                },
                "description": {
                    "en": "Text messages and one-time codes, sent through our SMS aggregator.",
                    "ru": "SMS и одноразовые коды, которые уходят через нашего SMS-агрегатора.",
                    "es": (
                        "Mensajes de texto y códigos de un solo uso, enviados a través de nuestro agregador "
                        "de SMS."
                    ),
                    "nb": "Tekstmeldinger og engangskoder, sendt via SMS-leverandøren vår.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "failure-rate",
                        "name": {
                            "en": "Failed messages",
                            "ru": "Доля неотправленных SMS",
                            "es": "Mensajes fallidos",
                            "nb": "Mislykkede meldinger",
                        },
                        "kind": "ratio",
                        "unit": "%",
                        "precision": 1,
                        "aggregation": "mean",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 3.0,
                        "partial": 10.0,
                        "major": 40.0,
                        "baseline": 0.7,
                        "noise": 0.3,
                    },
                ],
            },
        ],
    },
    {
        "slug": "jobs-data",
        "position": 4,
        "name": {
            "en": "Scheduled jobs and data",
            "ru": "Задания по расписанию и данные",
            "es": "Tareas programadas y datos",
            "nb": "Planlagte jobber og data",
        },
        "description": {
            "en": "Scheduled jobs, data exports and the database behind them.",
            "ru": "Задания по расписанию, выгрузки данных и база данных, на которой они работают.",
            "es": "Tareas programadas, exportaciones de datos y la base de datos que las sostiene.",
            "nb": "Planlagte jobber, dataeksport og databasen bak dem.",
        },
        "components": [
            {
                "slug": "scheduled-jobs",
                "name": {
                    "en": "Scheduled jobs",
                    "ru": "Задания по расписанию",
                    "es": "Tareas programadas",
                    "nb": "Planlagte jobber",
                },
                "description": {
                    "en": (
                        "Jobs that customers define to run on a schedule, such as syncs and nightly reports."
                    ),
                    "ru": (
                        "Задания клиентов, которые запускаются по расписанию: синхронизации, ночные отчёты и "
                        "т. п."
                    ),
                    "es": (
                        "Tareas que definen los clientes y que se ejecutan según un calendario, como "
                        "sincronizaciones e informes nocturnos."
                    ),
                    "nb": (
                        "Jobber som kundene definerer og som kjører etter en tidsplan, for eksempel "
                        "synkroniseringer og nattlige rapporter."
                    ),
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "start-lag",
                        "name": {
                            "en": "Job start lag",
                            "ru": "Задержка запуска заданий",
                            "es": "Retraso en el inicio de tareas",
                            "nb": "Forsinkelse ved jobbstart",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 0,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 60.0,
                        "partial": 300.0,
                        "major": 1200.0,
                        "baseline": 4.0,
                        "noise": 1.5,
                    },
                ],
            },
            {
                "slug": "data-exports",
                "name": {
                    "en": "Data exports",
                    "ru": "Выгрузка данных",
                    "es": "Exportación de datos",
                    "nb": "Dataeksport",
                },
                "description": {
                    "en": "CSV and Parquet exports, delivered by download link, SFTP or cloud storage.",
                    "ru": "Выгрузки в CSV и Parquet — по ссылке, через SFTP или в облачное хранилище.",
                    "es": (
                        "Exportaciones en CSV y Parquet, entregadas mediante enlace de descarga, SFTP o "
                        "almacenamiento en la nube."
                    ),
                    "nb": (
                        "Eksport til CSV og Parquet, levert som nedlastingslenke, via SFTP eller til "
                        "skylagring."
                    ),
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "queue-depth",
                        "name": {
                            "en": "Exports waiting",
                            "ru": "Выгрузки в очереди",
                            "es": "Exportaciones en cola",
                            "nb": "Eksporter i kø",
                        },
                        "kind": "gauge",
                        "unit": "count",
                        "precision": 0,
                        "aggregation": "latest",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 50.0,
                        "partial": 200.0,
                        "major": 600.0,
                        "baseline": 6.0,
                        "noise": 3.0,
                    },
                ],
            },
            {
                "slug": "database",
                "name": {
                    "en": "Primary database",
                    "ru": "Основная база данных",
                    "es": "Base de datos principal",
                    "nb": "Primærdatabase",
                },
                "description": {
                    "en": "The PostgreSQL cluster that stores accounts, orders and job state.",
                    "ru": "Кластер PostgreSQL, в котором хранятся аккаунты, заказы и состояние заданий.",
                    "es": (
                        "El clúster de PostgreSQL que guarda las cuentas, los pedidos y el estado de las "
                        "tareas."
                    ),
                    "nb": "PostgreSQL-klyngen som lagrer kontoer, ordrer og jobbstatus.",
                },
                "status_mode": "automatic",
                "metrics": [
                    {
                        "slug": "query-latency",
                        "name": {
                            "en": "Query latency (p95)",
                            "ru": "Задержка запросов (p95)",
                            "es": "Latencia de consultas (p95)",
                            "nb": "Spørringsforsinkelse (p95)",
                        },
                        "kind": "latency",
                        "unit": "ms",
                        "precision": 0,
                        "aggregation": "p95",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 50.0,
                        "partial": 200.0,
                        "major": 1000.0,
                        "baseline": 11.0,
                        "noise": 3.0,
                    },
                    {
                        "slug": "replication-lag",
                        "name": {
                            "en": "Replication lag",
                            "ru": "Отставание репликации",
                            "es": "Retraso de replicación",
                            "nb": "Replikeringsetterslep",
                        },
                        "kind": "latency",
                        "unit": "s",
                        "precision": 1,
                        "aggregation": "max",
                        "expected_interval": 60,
                        "higher_is_worse": True,
                        "degraded": 5.0,
                        "partial": 30.0,
                        "major": 120.0,
                        "baseline": 0.3,
                        "noise": 0.1,
                    },
                ],
            },
        ],
    },
    {
        "slug": "dependencies",
        "position": 5,
        "name": {
            "en": "Third-party dependencies",
            "ru": "Внешние сервисы",
            "es": "Servicios de terceros",
            "nb": "Tredjepartstjenester",
        },
        "description": {
            "en": (
                "Services run by other companies that parts of the platform rely on. Our on-call engineers "
                "set their status by hand."
            ),
            "ru": (
                "Сервисы других компаний, от которых зависят части платформы. Их статус вручную выставляют "
                "наши дежурные инженеры."
            ),
            "es": (
                "Servicios de otras empresas de los que dependen partes de la plataforma. Su estado lo "
                "actualiza a mano nuestro equipo de guardia."
            ),
            "nb": (
                "Tjenester fra andre selskaper som deler av plattformen er avhengige av. Statusen settes "
                "manuelt av våre vakthavende ingeniører."
            ),
        },
        "components": [
            {
                "slug": "cloud-provider",
                "name": {
                    "en": "Cloud provider",
                    "ru": "Облачный провайдер",
                    "es": "Proveedor de nube",
                    "nb": "Skyleverandør",
                },
                "description": {
                    "en": "Compute, storage and networking in our two hosting regions.",
                    "ru": "Вычислительные ресурсы, хранилище и сеть в двух наших регионах размещения.",
                    "es": "Cómputo, almacenamiento y red en nuestras dos regiones de alojamiento.",
                    "nb": "Regnekraft, lagring og nettverk i våre to driftsregioner.",
                },
                "status_mode": "manual",
                "metrics": [],
            },
            {
                "slug": "payment-processor",
                "name": {
                    "en": "Payment processor",
                    "ru": "Платёжный провайдер",
                    "es": "Procesador de pagos",
                    "nb": "Betalingsleverandør",
                },
                "description": {
                    "en": "Card authorisation and payouts for payments taken through the platform.",
                    "ru": "Авторизация карт и выплаты по платежам, принятым через платформу.",
                    "es": (
                        "Autorización de tarjetas y liquidaciones de los pagos cobrados a través de la "
                        "plataforma."
                    ),
                    "nb": "Kortautorisering og utbetalinger for betalinger som tas imot via plattformen.",
                },
                "status_mode": "manual",
                "metrics": [],
            },
        ],
    },
]

INCIDENTS = [
    {
        "key": "db-failover-stuck-jobs",
        "days_ago": 83,
        "start_hour_utc": 3,
        "start_minute": 17,
        "original_language": "nb",
        "title": {
            "nb": "Databasefeil og planlagte jobber som ikke kjørte",
            "en": "Database failover and scheduled jobs not running",
        },
        "impact": "major",
        "components": {
            "database": "major_outage",
            "scheduled-jobs": "partial_outage",
            "data-exports": "degraded_performance",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "nb": (
                        "Vi undersøker feil og treghet etter et problem med primærdatabasen. API-et og "
                        "dashbordet kan svare tregt, og planlagte jobber kan bli forsinket."
                    ),
                    "en": (
                        "We are investigating errors and slowness following a problem with the primary "
                        "database. The API and dashboard may respond slowly, and scheduled jobs may be "
                        "delayed."
                    ),
                },
            },
            {
                "minutes_after_start": 9,
                "status": "identified",
                "body": {
                    "nb": (
                        "Primærdatabasen falt ut kl. 03:09 UTC på grunn av en maskinvarefeil, og en replika "
                        "ble automatisk forfremmet til ny primær kl. 03:10. API-et og dashbordet fungerer "
                        "igjen. Jobbkjøreren har fortsatt ikke fått kontakt med den nye primæren, og vi "
                        "starter den på nytt."
                    ),
                    "en": (
                        "The primary database went down at 03:09 UTC because of a hardware fault, and a "
                        "replica was automatically promoted to primary at 03:10. The API and dashboard are "
                        "working again. The job runner has still not connected to the new primary, and we "
                        "are restarting it."
                    ),
                },
            },
            {
                "minutes_after_start": 38,
                "status": "monitoring",
                "body": {
                    "nb": (
                        "Jobbkjøreren er startet på nytt og har kontakt med databasen igjen. Nye "
                        "jobbkjøringer starter som normalt. Vi følger med."
                    ),
                    "en": (
                        "The job runner has been restarted and is connected to the database again. New job "
                        "runs are starting normally. We are monitoring."
                    ),
                },
            },
            {
                "minutes_after_start": 152,
                "status": "investigating",
                "body": {
                    "nb": (
                        "Vi har fått meldinger om at enkelte planlagte jobber ikke har kjørt siden kl. 03:09 "
                        "UTC. Vi undersøker saken."
                    ),
                    "en": (
                        "We have received reports that some scheduled jobs have not run since 03:09 UTC. We "
                        "are looking into it."
                    ),
                },
            },
            {
                "minutes_after_start": 170,
                "status": "identified",
                "body": {
                    "nb": (
                        "Kjøringer som var i gang da databasen falt ut, står fortsatt med status «running», "
                        "og planleggeren hopper over nye kjøringer av en jobb så lenge den forrige ikke er "
                        "ferdig. Omtrent 410 jobber er berørt. Vi rydder opp i disse kjøringene manuelt."
                    ),
                    "en": (
                        "Runs that were in progress when the database went down are still marked as "
                        '"running", and the scheduler skips new runs of a job while the previous one has '
                        "not finished. About 410 jobs are affected. We are cleaning up these runs by hand."
                    ),
                },
            },
            {
                "minutes_after_start": 201,
                "status": "monitoring",
                "body": {
                    "nb": (
                        "De hengende kjøringene er markert som mislykket, og de berørte jobbene er satt i kø "
                        "på nytt. Vi regner med at etterslepet er tatt igjen innen 30 minutter."
                    ),
                    "en": (
                        "The stuck runs have been marked as failed and the affected jobs have been queued "
                        "again. We expect the backlog to be cleared within 30 minutes."
                    ),
                },
            },
            {
                "minutes_after_start": 243,
                "status": "resolved",
                "body": {
                    "nb": (
                        "Alle berørte jobber har kjørt, og forsinkelsen ved jobbstart er tilbake på normalt "
                        "nivå. Vi beklager ulempene. En gjennomgang av hendelsen kommer."
                    ),
                    "en": (
                        "All affected jobs have run, and job start lag is back to normal. We apologise for "
                        "the disruption. A postmortem will follow."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "nb": (
                        "Kl. 03:09 UTC falt primærdatabasen ut, og en replika ble forfremmet etter 50 "
                        "sekunder. API-et hentet seg inn nesten med en gang, men tilkoblingspoolen i "
                        "jobbkjøreren ble stående med døde tilkoblinger. 412 planlagte jobber ble hengende "
                        "med en kjøring i status «running» og startet ikke igjen før vi ryddet opp manuelt "
                        "kl. 06:38 — opptil tre og en halv time senere."
                    ),
                    "en": (
                        "At 03:09 UTC the primary database went down, and a replica was promoted after 50 "
                        "seconds. The API recovered almost immediately, but the job runner's connection pool "
                        "was left holding dead connections. 412 scheduled jobs were left with a run stuck in "
                        '"running" and did not start again until we cleaned up by hand at 06:38 — up to '
                        "three and a half hours later."
                    ),
                },
                "customer_impact": {
                    "nb": (
                        "- 03:09–03:11: API-et og dashbordet returnerte feil på om lag 4 % av "
                        "forespørslene.\n"
                        "- 03:09–03:52: ingen planlagte jobber startet.\n"
                        "- 412 jobber hos 287 kunder hadde en kjøring som hang i «running», og alle nye "
                        "kjøringer av disse jobbene ble hoppet over fram til 06:38. For jobber som kjører "
                        "hver time, betyr det opptil tre tapte kjøringer.\n"
                        "- Eksporter som disse jobbene skulle starte, ble forsinket tilsvarende.\n"
                        "- Ingen data gikk tapt."
                    ),
                    "en": (
                        "- 03:09–03:11: the API and dashboard returned errors for about 4% of requests.\n"
                        "- 03:09–03:52: no scheduled jobs started.\n"
                        '- 412 jobs belonging to 287 customers had a run stuck in "running", and every new '
                        "run of those jobs was skipped until 06:38. For hourly jobs, that means up to three "
                        "missed runs.\n"
                        "- Exports started by these jobs were delayed by the same amount.\n"
                        "- No data was lost."
                    ),
                },
                "root_cause": {
                    "nb": (
                        "Jobbkjøreren har sin egen tilkoblingspool (40 tilkoblinger per prosess) rett mot "
                        "databasen, uten PgBouncer i mellom. Da `pg-main-2` forsvant, kom det verken FIN "
                        "eller RST fra den gamle verten; tilkoblingene ble bare stående åpne. Poolen hadde "
                        "ingen `connect_timeout`, ingen TCP keepalive på klientsiden og ingen sjekk av "
                        "tilkoblinger før utlån, så arbeiderne ventet på svar som aldri kom. Etter 15 "
                        "minutter startet tilsynsprosessen arbeiderne på nytt, men poolen lever i "
                        "hovedprosessen, så de nye arbeiderne fikk de samme døde tilkoblingene.\n\n"
                        "En kjøring får bare status «failed» hvis arbeideren selv rekker å skrive det. "
                        "Kjøringene ble derfor stående i «running» uten at noen eide dem. Planleggeren har "
                        "regelen «hopp over ny kjøring hvis den forrige fortsatt kjører», som skal hindre "
                        "overlappende kjøringer. Den regelen gjorde et databasebrudd på 50 sekunder om til "
                        "flere timer uten kjøringer."
                    ),
                    "en": (
                        "The job runner has its own connection pool (40 connections per process) straight to "
                        "the database, with no PgBouncer in between. When `pg-main-2` disappeared, the old "
                        "host sent neither FIN nor RST; the connections simply stayed open. The pool had no "
                        "`connect_timeout`, no client-side TCP keepalive and no check on connections before "
                        "handing them out, so the workers waited for answers that never came. After 15 "
                        "minutes the supervisor restarted the workers, but the pool lives in the parent "
                        "process, so the new workers were handed the same dead connections.\n\n"
                        'A run is only marked "failed" if its worker gets the chance to write that itself. '
                        'So the runs stayed in "running" with nobody owning them. The scheduler\'s rule '
                        '"skip a new run while the previous one is still running", meant to prevent '
                        "overlapping runs, turned a 50-second database outage into hours without runs."
                    ),
                },
                "detection_and_response": {
                    "nb": (
                        "- 03:09 — `pg-main-2` mister diskkontrolleren; kl. 03:10 blir `pg-main-3` "
                        "forfremmet.\n"
                        "- 03:12 — databasealarmene går, og vakthavende blir varslet.\n"
                        "- 03:17 — hendelsen publiseres på statussiden.\n"
                        "- 03:24 — jobbkjøreren har fortsatt ingen aktive spørringer; tilsynsprosessen "
                        "starter arbeiderne på nytt, uten effekt.\n"
                        "- 03:52 — full omstart av jobbkjøreren; nye kjøringer starter.\n"
                        "- 05:41 — første kundehenvendelse om en timesjobb som ikke har kjørt.\n"
                        "- 06:02 — årsaken er funnet: 412 foreldreløse kjøringer i «running».\n"
                        "- 06:38 — kjøringene er markert som mislykket og satt i kø på nytt.\n"
                        "- 07:14 — etterslepet er tatt igjen.\n\n"
                        "Vi hadde ingen alarm for jobber som ikke startet til planlagt tid: målingen "
                        "«forsinkelse ved jobbstart» ser bare på kjøringer som faktisk starter. Derfor var "
                        "det en kunde som oppdaget problemet, nesten to timer etter at vi trodde hendelsen "
                        "var under kontroll."
                    ),
                    "en": (
                        "- 03:09 — `pg-main-2` loses its disk controller; at 03:10 `pg-main-3` is promoted.\n"
                        "- 03:12 — database alerts fire and on-call is paged.\n"
                        "- 03:17 — incident posted on the status page.\n"
                        "- 03:24 — the job runner still has no active queries; the supervisor restarts the "
                        "workers, to no effect.\n"
                        "- 03:52 — full restart of the job runner; new runs start.\n"
                        "- 05:41 — first customer report of an hourly job that has not run.\n"
                        '- 06:02 — cause found: 412 orphaned runs in "running".\n'
                        "- 06:38 — the runs are marked as failed and queued again.\n"
                        "- 07:14 — backlog cleared.\n\n"
                        'We had no alert for jobs that did not start on time: the "job start lag" metric '
                        "only looks at runs that actually start. That is why a customer found the problem, "
                        "almost two hours after we believed the incident was under control."
                    ),
                },
                "what_we_changed": {
                    "nb": (
                        "- En vakthund, `run-watchdog`, går hvert minutt: kjøringer uten livstegn de siste 5 "
                        "minuttene markeres som «failed» med årsaken `lost_worker`, og neste kjøring "
                        "planlegges.\n"
                        "- Arbeiderne sender livstegn hvert 30. sekund.\n"
                        "- Poolen i jobbkjøreren har nå `connect_timeout=5s`, TCP keepalive etter 30 "
                        "sekunder og sjekker tilkoblingen før utlån.\n"
                        "- Ny alarm for planlagte kjøringer som ikke har startet 5 minutter etter planlagt "
                        "tid."
                    ),
                    "en": (
                        "- A watchdog, `run-watchdog`, runs every minute: runs with no heartbeat in the last "
                        '5 minutes are marked "failed" with the reason `lost_worker`, and the next run is '
                        "scheduled.\n"
                        "- Workers send a heartbeat every 30 seconds.\n"
                        "- The job runner's pool now has `connect_timeout=5s`, TCP keepalive after 30 "
                        "seconds, and checks each connection before handing it out.\n"
                        "- A new alert for scheduled runs that have not started 5 minutes after their "
                        "planned time."
                    ),
                },
                "what_we_will_change": {
                    "nb": (
                        "- Flytte jobbkjøreren bak PgBouncer, slik resten av plattformen allerede er.\n"
                        "- Øve på failover av databasen hvert kvartal i et produksjonslikt miljø, med "
                        "jobbkjøreren under last."
                    ),
                    "en": (
                        "- Move the job runner behind PgBouncer, like the rest of the platform already is.\n"
                        "- Rehearse a database failover every quarter in a production-like environment, with "
                        "the job runner under load."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "nb": "Vakthund for kjøringer uten livstegn",
                        "en": "Watchdog for runs without a heartbeat",
                    },
                    "owner_name": "Kari Nordby",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "nb": "Alarm for planlagte kjøringer som ikke starter",
                        "en": "Alert on scheduled runs that do not start",
                    },
                    "owner_name": "SRE team",
                    "state": "done",
                    "due_precision": "month",
                    "due_offset_months": 0,
                    "is_public": True,
                },
                {
                    "title": {
                        "nb": "Flytte jobbkjøreren bak PgBouncer",
                        "en": "Move the job runner behind PgBouncer",
                    },
                    "owner_name": "Jobs team",
                    "state": "open",
                    "due_precision": "month",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "nb": "Kvartalsvis failover-øvelse med jobbkjøreren under last",
                        "en": "Quarterly failover drill with the job runner under load",
                    },
                    "owner_name": "Ola Haugen",
                    "state": "in_progress",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": False,
                },
            ],
        },
    },
    {
        "key": "fraud-scoring-timeouts",
        "days_ago": 71,
        "start_hour_utc": 14,
        "start_minute": 6,
        "original_language": "es",
        "title": {
            "es": "Aumento de errores 503 en la API pública",
            "en": "Elevated 503 errors on the public API",
            "nb": "Økt antall 503-feil fra det offentlige API-et",
        },
        "impact": "major",
        "components": {
            "public-api": "partial_outage",
            "dashboard": "degraded_performance",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "es": (
                        "Estamos observando un aumento de respuestas `503 Service Unavailable` en la API "
                        "pública, sobre todo en `POST /v1/orders`. El equipo de guardia lo está investigando."
                    ),
                    "en": (
                        "We are seeing an elevated rate of `503 Service Unavailable` responses from the "
                        "public API, mostly on `POST /v1/orders`. Our on-call engineers are investigating."
                    ),
                },
            },
            {
                "minutes_after_start": 9,
                "status": "investigating",
                "body": {
                    "es": (
                        "Alrededor del 18 % de las peticiones a la API están fallando. Los errores no se "
                        "limitan a la creación de pedidos: también fallan lecturas que atienden los mismos "
                        "procesos, y el panel va lento por el mismo motivo."
                    ),
                    "en": (
                        "Around 18% of API requests are failing. The errors are not limited to order "
                        "creation: read requests served by the same workers fail too, and the dashboard is "
                        "slow for the same reason."
                    ),
                },
            },
            {
                "minutes_after_start": 24,
                "status": "identified",
                "body": {
                    "es": (
                        "Los procesos de la API se están quedando sin plazas libres porque esperan la "
                        "respuesta de nuestro proveedor externo de análisis de fraude, que tarda más de 10 "
                        "segundos en contestar. El *circuit breaker* que debería haber cortado esas llamadas "
                        "no se ha activado. Vamos a desactivar el análisis de fraude síncrono y pasar a "
                        "revisión asíncrona."
                    ),
                    "en": (
                        "The API workers are running out of free slots because they are waiting on our "
                        "third-party fraud-scoring provider, which is taking more than 10 seconds to answer. "
                        "The circuit breaker that should have cut these calls off has not tripped. We are "
                        "disabling synchronous fraud scoring and switching to asynchronous review."
                    ),
                },
            },
            {
                "minutes_after_start": 31,
                "status": "monitoring",
                "body": {
                    "es": (
                        "Hemos desactivado el análisis de fraude síncrono y la tasa de errores 503 ha bajado "
                        "del 18 % a menos del 0,1 % en dos minutos. Los pedidos creados durante este "
                        "intervalo se analizarán de forma asíncrona; unos pocos podrían quedar retenidos "
                        "para revisión manual. Seguimos vigilando."
                    ),
                    "en": (
                        "Synchronous fraud scoring is disabled and the 503 rate dropped from 18% to under "
                        "0.1% within two minutes. Orders created during this period will be scored "
                        "asynchronously; a few may be held for manual review. We are monitoring."
                    ),
                },
            },
            {
                "minutes_after_start": 78,
                "status": "resolved",
                "body": {
                    "es": (
                        "El proveedor se ha recuperado y las tasas de error llevan 45 minutos en valores "
                        "normales. Mantendremos el análisis asíncrono hasta desplegar la corrección del "
                        "*circuit breaker*. Publicaremos un análisis detallado del incidente."
                    ),
                    "en": (
                        "The provider has recovered and error rates have been normal for 45 minutes. We will "
                        "keep asynchronous scoring in place until the circuit-breaker fix is deployed. A "
                        "detailed postmortem will follow."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "es": (
                        "Entre las 14:04 y las 14:37 UTC, la API pública devolvió `503 Service Unavailable` "
                        "en hasta el 18 % de las peticiones. Nuestro proveedor externo de análisis de fraude "
                        "empezó a responder muy despacio, los procesos de la API se quedaron esperándolo "
                        "hasta agotar todas sus plazas, y el *circuit breaker* que debía protegernos nunca "
                        "se abrió porque no contaba los tiempos de espera agotados como fallos."
                    ),
                    "en": (
                        "Between 14:04 and 14:37 UTC, the public API answered `503 Service Unavailable` to "
                        "up to 18% of requests. Our third-party fraud-scoring provider became very slow, our "
                        "API workers waited on it until every slot was taken, and the circuit breaker that "
                        "was meant to protect us never opened, because it did not count timeouts as failures."
                    ),
                },
                "customer_impact": {
                    "es": (
                        "- Durante 33 minutos falló el 11,2 % de todas las peticiones a la API pública, con "
                        "un pico del 18,4 % a las 14:21.\n"
                        "- Lo más afectado fue la creación de pedidos: en el pico falló el 41 % de las "
                        "llamadas a `POST /v1/orders`. Los reintentos con la misma `Idempotency-Key` eran "
                        "seguros y no se creó ningún pedido duplicado.\n"
                        "- El panel comparte procesos con la API y cargó con lentitud (p95 de 6,8 s).\n"
                        "- 2316 pedidos se analizaron después de forma asíncrona; 37 quedaron retenidos para "
                        "revisión manual y se liberaron antes de las 16:10."
                    ),
                    "en": (
                        "- For 33 minutes, 11.2% of all public API requests failed, peaking at 18.4% at "
                        "14:21.\n"
                        "- Order creation was hit hardest: at the peak, 41% of `POST /v1/orders` calls "
                        "failed. Retries with the same `Idempotency-Key` were safe, and no duplicate orders "
                        "were created.\n"
                        "- The dashboard shares workers with the API and loaded slowly (p95 of 6.8 s).\n"
                        "- 2,316 orders were scored asynchronously afterwards; 37 were held for manual "
                        "review and released by 16:10."
                    ),
                },
                "root_cause": {
                    "es": (
                        "Cada pod de la API tiene 64 plazas de trabajo (*worker slots*). Al crear un pedido "
                        "llamamos de forma síncrona al proveedor de análisis de fraude, con un tiempo de "
                        "espera de 10 segundos. A las 14:02 su latencia pasó de unos 120 ms a entre 8 y 12 "
                        "s; según su propio informe, por un nodo de base de datos degradado.\n\n"
                        "Nuestro *circuit breaker* (`fraudscore-breaker`) se abre cuando falla el 50 % de "
                        "las llamadas en una ventana de 20 segundos, pero solo contaba como fallos las "
                        "respuestas HTTP 5xx y los errores de conexión. Un tiempo agotado lanzaba "
                        "`ReadTimeout`, que nuestro cliente capturaba y convertía en un resultado «sin "
                        "puntuación» para que el pedido siguiera hacia revisión manual. Para el *breaker*, "
                        "esas llamadas eran éxitos.\n\n"
                        "Así, cada petición de creación de pedido ocupaba una plaza durante 10 segundos "
                        "completos. En dos minutos se agotaron las plazas de los 24 pods, y el balanceador "
                        "de carga convirtió en 503 todas las peticiones que esperaban en cola, incluidas "
                        "lecturas que no tenían nada que ver con el fraude."
                    ),
                    "en": (
                        "Each API pod has 64 worker slots. Creating an order calls the fraud-scoring "
                        "provider synchronously, with a 10-second timeout. At 14:02 the provider's latency "
                        "went from about 120 ms to between 8 and 12 s; their own report blames a degraded "
                        "database node.\n\n"
                        "Our circuit breaker (`fraudscore-breaker`) opens when 50% of calls fail within a "
                        "20-second window, but it only counted HTTP 5xx responses and connection errors as "
                        "failures. A timeout raised `ReadTimeout`, which our client caught and turned into a "
                        '"no score" result so that the order could continue to manual review. To the '
                        "breaker, those calls were successes.\n\n"
                        "So every order request held a slot for the full 10 seconds. Within two minutes the "
                        "slots on all 24 pods were taken, and the load balancer turned every request waiting "
                        "in the queue into a 503 — including reads that had nothing to do with fraud scoring."
                    ),
                },
                "detection_and_response": {
                    "es": (
                        "- 14:04 — la tasa de 503 supera el 1 %.\n"
                        "- 14:06 — salta la alerta `api-5xx-rate`, se avisa a la guardia y se publica el "
                        "incidente.\n"
                        "- 14:13 — la guardia ve `worker_slots_busy` en 64/64 en todos los pods; las trazas "
                        "muestran el tiempo consumido en `fraudscore.score_order`.\n"
                        "- 14:21 — pico del 18,4 % de errores.\n"
                        "- 14:28 — se decide desactivar la *feature flag* `orders.sync_fraud_scoring`.\n"
                        "- 14:35 — la flag está desactivada en todas partes; a las 14:37 los 503 bajan del "
                        "0,1 %.\n"
                        "- 15:24 — incidente resuelto, tras confirmar el proveedor su recuperación.\n\n"
                        "La detección fue rápida, pero tardamos 22 minutos en relacionar el síntoma con el "
                        "proveedor: el panel del *breaker* mostraba «cerrado, 0 % de fallos», y nos lo "
                        "creímos."
                    ),
                    "en": (
                        "- 14:04 — the 503 rate crosses 1%.\n"
                        "- 14:06 — the `api-5xx-rate` alert pages on-call; the incident is posted.\n"
                        "- 14:13 — on-call sees `worker_slots_busy` at 64/64 on every pod; traces show the "
                        "time going into `fraudscore.score_order`.\n"
                        "- 14:21 — errors peak at 18.4%.\n"
                        "- 14:28 — decision to switch off the `orders.sync_fraud_scoring` feature flag.\n"
                        "- 14:35 — the flag is off everywhere; by 14:37 the 503 rate is below 0.1%.\n"
                        "- 15:24 — incident resolved after the provider confirmed recovery.\n\n"
                        "Detection was quick, but it took us 22 minutes to connect the symptom to the "
                        'provider: the breaker dashboard said "closed, 0% failures", and we believed it.'
                    ),
                },
                "what_we_changed": {
                    "es": (
                        "- Los tiempos agotados y los resultados «sin puntuación» cuentan ahora como fallos "
                        "para el *breaker*, que además se abre si la latencia p90 supera los 2 s durante 30 "
                        "segundos.\n"
                        "- El tiempo de espera de la llamada ha bajado de 10 s a 1,5 s; el p99 habitual del "
                        "proveedor es de 400 ms.\n"
                        "- Las llamadas al análisis de fraude se hacen en un compartimento aislado "
                        "(*bulkhead*) de 8 plazas por pod, de modo que una dependencia lenta ya no puede "
                        "quitarles las plazas a las lecturas."
                    ),
                    "en": (
                        '- Timeouts and "no score" results now count as failures for the breaker, which '
                        "also opens when p90 latency stays above 2 s for 30 seconds.\n"
                        "- The call timeout went down from 10 s to 1.5 s; the provider's usual p99 is 400 "
                        "ms.\n"
                        "- Fraud-scoring calls run in an isolated bulkhead of 8 slots per pod, so a slow "
                        "dependency can no longer take the slots that reads need."
                    ),
                },
                "what_we_will_change": {
                    "es": (
                        "- Sacar por completo el análisis de fraude de la ruta de la petición: el pedido se "
                        "aceptará como `pending_review` y se analizará desde una cola.\n"
                        "- Organizar un *game day* que inyecte latencia —no solo errores— en cada "
                        "dependencia externa, para comprobar que todos nuestros *breakers* reaccionan."
                    ),
                    "en": (
                        "- Take fraud scoring off the request path entirely: orders will be accepted as "
                        "`pending_review` and scored from a queue.\n"
                        "- Run a game day that injects latency — not just errors — into every third-party "
                        "dependency, to check that all our breakers react."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "es": (
                            "Contar los tiempos agotados y los resultados de respaldo como fallos del breaker"
                        ),
                        "en": "Count timeouts and fallback results as circuit-breaker failures",
                    },
                    "owner_name": "Lucía Ortega",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "es": "Aislar cada dependencia externa en su propio bulkhead",
                        "en": "Isolate each third-party dependency in its own bulkhead",
                    },
                    "owner_name": "Platform team",
                    "state": "done",
                    "due_precision": "month",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "es": "Game day con inyección de latencia en todas las dependencias externas",
                        "en": "Latency-injection game day for every third-party dependency",
                    },
                    "owner_name": "SRE team",
                    "state": "open",
                    "due_precision": "month",
                    "due_offset_months": 1,
                    "is_public": False,
                },
                {
                    "title": {
                        "es": "Analizar los pedidos de forma asíncrona, fuera de la ruta de la petición",
                        "en": "Score orders asynchronously, outside the request path",
                    },
                    "owner_name": "Payments team",
                    "state": "in_progress",
                    "due_precision": "quarter",
                    "due_offset_months": 5,
                    "is_public": True,
                },
            ],
        },
    },
    {
        "key": "webhook-partition-skew",
        "days_ago": 58,
        "start_hour_utc": 9,
        "start_minute": 41,
        "original_language": "ru",
        "title": {
            "ru": "Задержка доставки вебхуков до 30 минут",
            "en": "Webhook deliveries delayed by up to 30 minutes",
        },
        "impact": "major",
        "components": {
            "webhook-delivery": "partial_outage",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "ru": (
                        "Вебхуки доставляются с задержкой: сейчас около 9 минут, и задержка растёт. События "
                        "не теряются — все они сохранены в очереди и будут доставлены. Выясняем причину."
                    ),
                    "en": (
                        "Webhooks are being delivered late: currently by about 9 minutes, and the delay is "
                        "growing. No events are lost — they are all safely queued and will be delivered. We "
                        "are investigating."
                    ),
                },
            },
            {
                "minutes_after_start": 14,
                "status": "investigating",
                "body": {
                    "ru": (
                        "Задержка достигла 19 минут. Нагрузка на обработчики доставки распределена крайне "
                        "неравномерно: почти весь поток приходится на две из 64 партиций очереди "
                        "`webhooks.outbound`, остальные обработчики простаивают."
                    ),
                    "en": (
                        "The delay has reached 19 minutes. Load on the delivery workers is extremely uneven: "
                        "nearly all traffic is landing on two of the 64 partitions of the "
                        "`webhooks.outbound` queue, while the other workers sit idle."
                    ),
                },
            },
            {
                "minutes_after_start": 27,
                "status": "identified",
                "body": {
                    "ru": (
                        "Причина найдена: утренний релиз сервиса приёма событий изменил ключ "
                        "партиционирования. Для событий нового формата идентификатор клиента оказался "
                        "пустым, и ключ свёлся к названию региона — то есть всего к двум возможным "
                        "значениям. Откатываем релиз и готовимся перераспределить накопившуюся очередь."
                    ),
                    "en": (
                        "We have found the cause: this morning's release of the event ingestion service "
                        "changed the partition key. For events in the new format the customer ID was empty, "
                        "so the key collapsed to the region name — just two possible values. We are rolling "
                        "the release back and preparing to redistribute the backlog."
                    ),
                },
            },
            {
                "minutes_after_start": 41,
                "status": "monitoring",
                "body": {
                    "ru": (
                        "Релиз откачен в 10:12 UTC, новые события снова распределяются по всем 64 партициям. "
                        "Накопившиеся события (около 1,5 млн) перекладываются в резервный топик и "
                        "доставляются с ограничением скорости, чтобы не перегрузить ваши эндпоинты. "
                        "Максимальная задержка составила 31 минуту и теперь снижается."
                    ),
                    "en": (
                        "The release was rolled back at 10:12 UTC, and new events are spread across all 64 "
                        "partitions again. The backlog (about 1.5 million events) is being moved to a spare "
                        "topic and delivered at a limited rate so that your endpoints are not flooded. The "
                        "delay peaked at 31 minutes and is now falling."
                    ),
                },
            },
            {
                "minutes_after_start": 74,
                "status": "resolved",
                "body": {
                    "ru": (
                        "Очередь разобрана в 10:47 UTC, задержка доставки вернулась к обычным 1–2 секундам. "
                        "Все события доставлены, потерь нет. Разбор инцидента опубликуем в ближайшие дни."
                    ),
                    "en": (
                        "The backlog was cleared at 10:47 UTC and delivery delay is back to the usual 1–2 "
                        "seconds. Every event has been delivered; nothing was lost. We will publish a "
                        "postmortem in the coming days."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "ru": (
                        "С 09:12 до 10:47 UTC вебхуки доставлялись с задержкой, которая в худший момент "
                        "достигала 31 минуты. Релиз сервиса приёма событий `event-ingest` изменил ключ "
                        "партиционирования, и почти весь поток событий попал в 2 из 64 партиций очереди "
                        "доставки. Ни одно событие не потеряно."
                    ),
                    "en": (
                        "From 09:12 to 10:47 UTC, webhooks were delivered late, by up to 31 minutes at the "
                        "worst point. A release of our event ingestion service, `event-ingest`, changed the "
                        "partition key, and almost all events ended up in 2 of the 64 partitions of the "
                        "delivery queue. No events were lost."
                    ),
                },
                "customer_impact": {
                    "ru": (
                        "- Около 6 млн вебхуков доставлены с задержкой больше минуты; максимальная задержка "
                        "— 31 минута, в 10:12 UTC.\n"
                        "- Повторные попытки доставки на временно недоступные эндпоинты задержались на "
                        "столько же.\n"
                        "- Примерно у 1 100 аккаунтов часть событий пришла не по порядку, пока мы разбирали "
                        "очередь (10:15–10:47). Наш API не гарантирует порядок доставки, но мы знаем, что "
                        "многие интеграции на него всё-таки полагаются.\n"
                        "- Событий, потерянных или доставленных дважды сверх обычного, не было."
                    ),
                    "en": (
                        "- About 6 million webhooks were delivered more than a minute late; the worst delay "
                        "was 31 minutes, at 10:12 UTC.\n"
                        "- Retries to temporarily unavailable endpoints were delayed by the same amount.\n"
                        "- Around 1,100 accounts received some events out of order while we were draining "
                        "the backlog (10:15–10:47). Our API does not promise ordered delivery, but we know "
                        "that many integrations rely on it anyway.\n"
                        "- No events were lost, and there were no more duplicate deliveries than usual."
                    ),
                },
                "root_cause": {
                    "ru": (
                        "Топик `webhooks.outbound` разбит на 64 партиции. Каждую партицию читает один "
                        "обработчик из группы `webhook-dispatcher` и доставляет события строго по очереди — "
                        "так сохраняется порядок событий одного аккаунта. До инцидента ключом "
                        "партиционирования был `account_id`.\n\n"
                        'В релизе `event-ingest` 4.19 ключ заменили на `hash(customer_id + ":" + region)`: '
                        "мы готовили разделение трафика по регионам. Но в конверте событий версии 3, в "
                        "котором приходит около 97 % трафика, это поле называется `account_id`, а "
                        "`customer_id` остался только в старом формате. Построитель ключа не проверял пустое "
                        'значение, и ключ превратился в `":eu-west"` или `":us-east"`. Два значения — '
                        "две партиции, 17 и 42.\n\n"
                        "Обычно на платформу приходит около 1 400 событий в секунду, примерно по 22 на "
                        "партицию. После релиза каждая из двух «горячих» партиций получала около 680 событий "
                        "в секунду, а один обработчик успевает доставить около 400. Остальные 62 обработчика "
                        "простаивали."
                    ),
                    "en": (
                        "The `webhooks.outbound` topic has 64 partitions. Each partition is read by one "
                        "worker in the `webhook-dispatcher` group, which delivers its events strictly in "
                        "order — that is how we keep the events of a single account in sequence. Before the "
                        "incident, the partition key was `account_id`.\n\n"
                        'Release 4.19 of `event-ingest` changed the key to `hash(customer_id + ":" + '
                        "region)`, as groundwork for splitting traffic by region. But in version 3 of the "
                        "event envelope, which carries about 97% of traffic, that field is called "
                        "`account_id`; `customer_id` only exists in the old format. The key builder did not "
                        'check for an empty value, so the key became either `":eu-west"` or '
                        '`":us-east"`. Two values, two partitions: 17 and 42.\n\n'
                        "The platform normally receives about 1,400 events per second, roughly 22 per "
                        "partition. After the release, each of the two hot partitions received about 680 "
                        "events per second, while one worker can deliver about 400. The other 62 workers had "
                        "nothing to do."
                    ),
                },
                "detection_and_response": {
                    "ru": (
                        "- 09:12 — начало раскатки `event-ingest` 4.19.\n"
                        "- 09:31 — срабатывает алерт `webhook_delivery_delay_p95 > 60s`.\n"
                        "- 09:41 — инцидент объявлен на статус-странице.\n"
                        "- 09:52 — дежурный замечает на графике отставания обработчиков, что отстают только "
                        "партиции 17 и 42.\n"
                        "- 10:03 — перекос связан с релизом `event-ingest`.\n"
                        "- 10:08 — начат откат; в 10:12 откат завершён.\n"
                        "- 10:15 — запущена перекладка накопившихся событий в `webhooks.outbound.drain` с "
                        "правильным ключом.\n"
                        "- 10:47 — очередь разобрана, задержка в норме.\n\n"
                        "Алерт сработал через 19 минут после начала раскатки. Ещё около 20 минут мы "
                        "потеряли, потому что сначала искали медленные эндпоинты клиентов — обычную причину "
                        "роста задержки."
                    ),
                    "en": (
                        "- 09:12 — rollout of `event-ingest` 4.19 begins.\n"
                        "- 09:31 — the `webhook_delivery_delay_p95 > 60s` alert fires.\n"
                        "- 09:41 — incident posted on the status page.\n"
                        "- 09:52 — on-call notices on the consumer lag graph that only partitions 17 and 42 "
                        "are behind.\n"
                        "- 10:03 — the skew is traced to the `event-ingest` release.\n"
                        "- 10:08 — rollback starts; it completes at 10:12.\n"
                        "- 10:15 — we start moving the backlog to `webhooks.outbound.drain`, keyed "
                        "correctly.\n"
                        "- 10:47 — backlog cleared, delay back to normal.\n\n"
                        "The alert fired 19 minutes after the rollout began. We lost roughly another 20 "
                        "minutes because we first looked for slow customer endpoints, which is the usual "
                        "reason for rising delay."
                    ),
                },
                "what_we_changed": {
                    "ru": (
                        "- Построитель ключа отклоняет события с пустым `account_id` и пишет ошибку, а не "
                        "подставляет молча пустую строку.\n"
                        "- Ключом снова стал `account_id`. Разделение по регионам сделаем отдельными "
                        "топиками, а не через ключ.\n"
                        "- Добавлен алерт на перекос: если на одну партицию больше 5 минут приходится более "
                        "10 % входящего потока."
                    ),
                    "en": (
                        "- The key builder rejects events with an empty `account_id` and logs an error "
                        "instead of silently using an empty string.\n"
                        "- The key is `account_id` again. We will split traffic by region with separate "
                        "topics, not through the key.\n"
                        "- A new alert fires when a single partition receives more than 10% of inbound "
                        "traffic for over 5 minutes."
                    ),
                },
                "what_we_will_change": {
                    "ru": (
                        "- Контрактные тесты для конверта событий: все поля, из которых строится ключ, "
                        "станут обязательными.\n"
                        "- На canary-этапе раскатки `event-ingest` будем проверять распределение событий по "
                        "партициям, прежде чем раскатывать дальше.\n"
                        "- Перекладку очереди превратим из скрипта, написанного во время инцидента, в "
                        "штатный инструмент с runbook."
                    ),
                    "en": (
                        "- Contract tests for the event envelope: every field the key is built from will "
                        "become mandatory.\n"
                        "- The canary stage of `event-ingest` rollouts will check how events spread across "
                        "partitions before the rollout continues.\n"
                        "- The backlog-moving script written during the incident will become a supported "
                        "tool with a runbook."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "ru": "Отклонять события с пустым ключом партиционирования",
                        "en": "Reject events with an empty partition key",
                    },
                    "owner_name": "Irina Volkova",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "ru": "Алерт на перекос нагрузки между партициями",
                        "en": "Alert on load skew between partitions",
                    },
                    "owner_name": "Events team",
                    "state": "done",
                    "due_precision": "month",
                    "due_offset_months": 0,
                    "is_public": True,
                },
                {
                    "title": {
                        "ru": "Проверка распределения по партициям на canary-этапе event-ingest",
                        "en": "Partition-distribution check in the event-ingest canary stage",
                    },
                    "owner_name": "Events team",
                    "state": "open",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": False,
                },
                {
                    "title": {
                        "ru": "Штатный инструмент и runbook для перекладки очереди",
                        "en": "Supported tool and runbook for draining a skewed queue",
                    },
                    "owner_name": "Dmitry Orlov",
                    "state": "in_progress",
                    "due_precision": "quarter",
                    "due_offset_months": 3,
                    "is_public": False,
                },
            ],
        },
    },
    {
        "key": "service-registry-field-rename",
        "days_ago": 44,
        "start_hour_utc": 16,
        "start_minute": 22,
        "original_language": "es",
        "title": {
            "es": "Fallos en las exportaciones de datos y en los informes del panel",
            "en": "Data exports and dashboard reports failing",
            "ru": "Сбои выгрузки данных и отчётов в веб-панели",
        },
        "impact": "major",
        "components": {
            "data-exports": "major_outage",
            "dashboard": "partial_outage",
            "scheduled-jobs": "degraded_performance",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "es": (
                        "Estamos investigando errores al generar exportaciones de datos y al cargar los "
                        "informes del panel. El resto de la plataforma funciona con normalidad."
                    ),
                    "en": (
                        "We are investigating errors when generating data exports and loading reports in the "
                        "dashboard. The rest of the platform is working normally."
                    ),
                },
            },
            {
                "minutes_after_start": 8,
                "status": "investigating",
                "body": {
                    "es": (
                        "Varios servicios internos no encuentran instancias sanas de los servicios de "
                        "exportación e informes, aunque esas instancias están en marcha y responden. El "
                        "problema coincide con los despliegues realizados a partir de las 16:05 UTC."
                    ),
                    "en": (
                        "Several internal services cannot find any healthy instances of the export and "
                        "reporting services, even though those instances are up and responding. The problem "
                        "lines up with deployments made from 16:05 UTC onwards."
                    ),
                },
            },
            {
                "minutes_after_start": 19,
                "status": "identified",
                "body": {
                    "es": (
                        "Hemos identificado la causa: una nueva versión del agente del registro de servicios "
                        "publica la dirección de cada instancia en un campo con otro nombre, y los servicios "
                        "que usan una versión anterior de la librería cliente no la reconocen. Hemos "
                        "congelado todos los despliegues y estamos volviendo a la versión anterior del "
                        "agente."
                    ),
                    "en": (
                        "We have identified the cause: a new version of the service registry agent publishes "
                        "each instance's address under a renamed field, and services on an older version of "
                        "the client library do not recognise it. We have frozen all deployments and are "
                        "rolling the agent back to the previous version."
                    ),
                },
            },
            {
                "minutes_after_start": 46,
                "status": "monitoring",
                "body": {
                    "es": (
                        "Las instancias afectadas vuelven a registrarse con el formato anterior, y las "
                        "exportaciones y los informes funcionan de nuevo. Las exportaciones que fallaron "
                        "entre las 16:05 y las 17:02 UTC se están reintentando automáticamente."
                    ),
                    "en": (
                        "The affected instances are registering in the previous format again, and exports "
                        "and reports are working. Exports that failed between 16:05 and 17:02 UTC are being "
                        "retried automatically."
                    ),
                },
            },
            {
                "minutes_after_start": 95,
                "status": "resolved",
                "body": {
                    "es": (
                        "Todas las exportaciones fallidas se han vuelto a generar y entregar. Damos el "
                        "incidente por resuelto; publicaremos un análisis detallado."
                    ),
                    "en": (
                        "Every failed export has been regenerated and delivered. The incident is resolved; "
                        "we will publish a detailed postmortem."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "es": (
                        "Entre las 16:05 y las 17:02 UTC fallaron las exportaciones de datos y los informes "
                        "del panel no cargaban para la mayoría de los clientes. Un cambio incompatible en el "
                        "formato del registro de servicios —el campo `address` pasó a llamarse `endpoint`— "
                        "hizo que los servicios con una versión antigua de la librería cliente dejaran de "
                        "ver las instancias recién desplegadas."
                    ),
                    "en": (
                        "Between 16:05 and 17:02 UTC, data exports failed and dashboard reports would not "
                        "load for most customers. A backward-incompatible change to the service registry "
                        "format — the `address` field was renamed to `endpoint` — meant that services on an "
                        "old version of the client library could no longer see freshly deployed instances."
                    ),
                },
                "customer_impact": {
                    "es": (
                        "- Fallaron 3870 exportaciones programadas y 1140 manuales. Todas se regeneraron y "
                        "se entregaron antes de las 17:55 UTC.\n"
                        "- Las páginas de informes del panel devolvieron un error en el 62 % de las cargas "
                        "entre las 16:18 y las 17:02.\n"
                        "- Las tareas programadas que esperan a una exportación, como las sincronizaciones "
                        "con almacenes de datos, empezaron con hasta 40 minutos de retraso.\n"
                        "- La API pública, los webhooks y la mensajería no se vieron afectados."
                    ),
                    "en": (
                        "- 3,870 scheduled and 1,140 manual exports failed. All of them were regenerated and "
                        "delivered by 17:55 UTC.\n"
                        "- Report pages in the dashboard returned an error for 62% of loads between 16:18 "
                        "and 17:02.\n"
                        "- Scheduled jobs that wait for an export, such as data warehouse syncs, started up "
                        "to 40 minutes late.\n"
                        "- The public API, webhooks and messaging were not affected."
                    ),
                },
                "root_cause": {
                    "es": (
                        "Nuestros servicios se encuentran unos a otros a través del registro de servicios: "
                        "cada instancia publica una entrada con su dirección y su estado, y el *sidecar* de "
                        "cada cliente enruta solo hacia instancias sanas.\n\n"
                        "La versión 3.0 del agente del registro cambió el formato de esa entrada: el campo "
                        'de texto `address` (`"10.4.2.17:8443"`) se sustituyó por un objeto `endpoint` con '
                        "`host` y `port`. La librería cliente 2.8 ya entendía ambos formatos, y el equipo de "
                        "plataforma dio por hecho que todos los servicios la usaban. No era así: 11 "
                        "servicios seguían con la 2.6, que descarta en silencio cualquier entrada sin "
                        "`address`.\n\n"
                        "El agente nuevo llegaba a cada servicio con su siguiente despliegue. A las 16:05 se "
                        "desplegaron `export-api` y `reporting-api`; desde ese momento, para `export-worker` "
                        "y para el backend del panel —ambos con la librería 2.6— esos servicios dejaron de "
                        "tener instancias. El cambio se había probado en *staging*, donde todos los "
                        "servicios ya usaban la 2.8."
                    ),
                    "en": (
                        "Our services find each other through the service registry: every instance publishes "
                        "an entry with its address and health, and each client's sidecar routes only to "
                        "healthy instances.\n\n"
                        "Version 3.0 of the registry agent changed the entry format: the `address` string "
                        'field (`"10.4.2.17:8443"`) was replaced by an `endpoint` object with `host` and '
                        "`port`. Client library 2.8 already understood both formats, and the platform team "
                        "assumed every service was on it. They were not: 11 services were still on 2.6, "
                        "which silently drops any entry without an `address`.\n\n"
                        "The new agent reached each service with its next deployment. At 16:05 `export-api` "
                        "and `reporting-api` were deployed; from then on, as far as `export-worker` and the "
                        "dashboard backend were concerned — both on library 2.6 — those services had no "
                        "instances at all. The change had been tested in staging, where every service was "
                        "already on 2.8."
                    ),
                },
                "detection_and_response": {
                    "es": (
                        "- 16:05 — despliegue de `export-api` y `reporting-api` con el agente 3.0.\n"
                        "- 16:11 — primera alerta: la tasa de fallos de `export-worker` supera el 20 %.\n"
                        "- 16:22 — incidente publicado en la página de estado.\n"
                        "- 16:29 — los registros del *sidecar* muestran `no healthy upstream for "
                        "export-api`, aunque las instancias pasaban sus comprobaciones de salud.\n"
                        "- 16:38 — se relaciona el fallo con la versión del agente y se congelan todos los "
                        "despliegues.\n"
                        "- 16:44 — empieza la vuelta atrás al agente 2.x en los 23 servicios ya "
                        "desplegados.\n"
                        "- 17:02 — último servicio revertido; los errores bajan a cero.\n"
                        "- 17:55 — se entregan las últimas exportaciones regeneradas.\n\n"
                        "Tardamos 11 minutos en publicar el incidente porque la primera alerta parecía un "
                        "fallo aislado de `export-worker`, que se reinició antes de mirar más allá."
                    ),
                    "en": (
                        "- 16:05 — `export-api` and `reporting-api` deployed with agent 3.0.\n"
                        "- 16:11 — first alert: the `export-worker` failure rate exceeds 20%.\n"
                        "- 16:22 — incident posted on the status page.\n"
                        "- 16:29 — sidecar logs show `no healthy upstream for export-api`, although the "
                        "instances were passing their health checks.\n"
                        "- 16:38 — the failure is traced to the agent version; all deployments are frozen.\n"
                        "- 16:44 — rollback to agent 2.x starts on the 23 services already deployed.\n"
                        "- 17:02 — last service rolled back; errors drop to zero.\n"
                        "- 17:55 — the last regenerated exports are delivered.\n\n"
                        "It took 11 minutes to post the incident because the first alert looked like an "
                        "isolated `export-worker` problem, and the worker was restarted before anyone looked "
                        "further."
                    ),
                },
                "what_we_changed": {
                    "es": (
                        "- El agente vuelve a publicar los dos campos, `address` y `endpoint`. No "
                        "retiraremos `address` mientras quede algún cliente que lo lea.\n"
                        "- Cada cliente informa al registro de la versión de su librería, y el panel de "
                        "plataforma muestra qué servicios usan una versión que no entiende el formato "
                        "actual.\n"
                        "- El agente del registro se despliega ahora como un cambio de plataforma, con su "
                        "propio canario, y no a remolque del despliegue de cada servicio."
                    ),
                    "en": (
                        "- The agent publishes both fields, `address` and `endpoint`, again. We will not "
                        "retire `address` while any client still reads it.\n"
                        "- Every client reports its library version to the registry, and the platform "
                        "dashboard shows which services run a version that does not understand the current "
                        "format.\n"
                        "- The registry agent is now rolled out as a platform change with its own canary, "
                        "instead of riding along with each service's deployment."
                    ),
                },
                "what_we_will_change": {
                    "es": (
                        "- Cualquier cambio de esquema del registro seguirá un proceso en dos fases: añadir "
                        "el campo nuevo, migrar a todos los lectores, medir, y solo entonces eliminar el "
                        "antiguo.\n"
                        "- Una prueba de contrato en CI validará las entradas del agente nuevo contra todas "
                        "las versiones de la librería que estén en uso.\n"
                        "- Actualizaremos los 11 servicios rezagados a la librería 2.8."
                    ),
                    "en": (
                        "- Every registry schema change will follow a two-phase process: add the new field, "
                        "migrate every reader, measure, and only then remove the old one.\n"
                        "- A contract test in CI will validate entries from a new agent against every "
                        "library version in use.\n"
                        "- We will upgrade the 11 lagging services to library 2.8."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "es": "Publicar a la vez los campos address y endpoint",
                        "en": "Publish both the address and endpoint fields",
                    },
                    "owner_name": "Platform team",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "es": "Actualizar los 11 servicios rezagados a la librería cliente 2.8",
                        "en": "Upgrade the 11 lagging services to client library 2.8",
                    },
                    "owner_name": "Javier Molina",
                    "state": "open",
                    "due_precision": "month",
                    "due_offset_months": 0,
                    "is_public": True,
                },
                {
                    "title": {
                        "es": "Prueba de contrato en CI para el formato del registro de servicios",
                        "en": "CI contract test for the service registry format",
                    },
                    "owner_name": "Platform team",
                    "state": "open",
                    "due_precision": "quarter",
                    "due_offset_months": 3,
                    "is_public": True,
                },
                {
                    "title": {
                        "es": "Sustituir el registro de servicios por registros DNS SRV",
                        "en": "Replace the service registry with DNS SRV records",
                    },
                    "owner_name": "Platform team",
                    "state": "dropped",
                    "due_precision": "year",
                    "due_offset_months": 12,
                    "is_public": False,
                },
            ],
        },
    },
    {
        "key": "sms-client-certificate-expired",
        "days_ago": 36,
        "start_hour_utc": 0,
        "start_minute": 14,
        "original_language": "nb",
        "title": {
            "nb": "SMS-er blir ikke levert",
            "en": "SMS messages not being delivered",
        },
        "impact": "major",
        "components": {
            "sms-delivery": "major_outage",
        },
        "updates": [
            {
                "minutes_after_start": 2,
                "status": "investigating",
                "body": {
                    "nb": (
                        "SMS-er, også engangskoder for innlogging, blir ikke levert. Meldingene blir "
                        "liggende i kø hos oss. Vi undersøker saken."
                    ),
                },
            },
            {
                "minutes_after_start": 9,
                "status": "identified",
                "body": {
                    "nb": (
                        "Klientsertifikatet vi bruker for å koble til SMS-leverandøren vår, utløp kl. 00:00 "
                        "UTC, og leverandøren avviser derfor alle tilkoblinger fra oss. Vi har bestilt et "
                        "nytt sertifikat i leverandørens portal og tar det i bruk så snart det er utstedt."
                    ),
                },
            },
            {
                "minutes_after_start": 31,
                "status": "monitoring",
                "body": {
                    "nb": (
                        "Det nye sertifikatet ble tatt i bruk kl. 00:41 UTC. SMS-er sendes igjen, og "
                        "meldingene i køen er på vei ut. Engangskoder som er eldre enn 10 minutter, sendes "
                        "ikke, siden de uansett er utløpt."
                    ),
                },
            },
            {
                "minutes_after_start": 52,
                "status": "resolved",
                "body": {
                    "nb": (
                        "Køen er tømt, og leveringen er normal igjen. Om lag 14 000 SMS-er ble forsinket med "
                        "opptil 41 minutter, og 3 200 utløpte engangskoder ble ikke sendt. Brukere som "
                        "ventet på en kode, kan be om en ny. Vi har lagt inn varsling 30 dager før "
                        "sertifikater utløper."
                    ),
                },
            },
        ],
    },
    {
        "key": "auth-retry-storm",
        "days_ago": 27,
        "start_hour_utc": 11,
        "start_minute": 48,
        "original_language": "en",
        "title": {
            "en": "Sign-in and token refresh failures",
            "ru": "Сбои входа и обновления токенов",
            "es": "Errores al iniciar sesión y al renovar tokens",
            "nb": "Feil ved innlogging og fornying av tokens",
        },
        "impact": "critical",
        "components": {
            "authentication": "major_outage",
            "public-api": "partial_outage",
            "dashboard": "partial_outage",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "en": (
                        "We are investigating failed sign-ins and token refresh errors. API requests made "
                        "with a still-valid access token are mostly unaffected."
                    ),
                    "ru": (
                        "Выясняем причину ошибок при входе и обновлении токенов. Запросы к API с действующим "
                        "токеном доступа в основном проходят."
                    ),
                    "es": (
                        "Estamos investigando fallos al iniciar sesión y errores al renovar tokens. Las "
                        "peticiones a la API con un token de acceso todavía válido apenas se ven afectadas."
                    ),
                    "nb": (
                        "Vi undersøker feil ved innlogging og fornying av tokens. API-kall med et gyldig "
                        "tilgangstoken fungerer stort sett som normalt."
                    ),
                },
            },
            {
                "minutes_after_start": 7,
                "status": "investigating",
                "body": {
                    "en": (
                        "Around 60% of authentication requests are failing. A brief failover in our session "
                        "store at 11:46 UTC is over, but the authentication service is receiving about 15 "
                        "times its normal traffic, most of it automatic retries."
                    ),
                    "ru": (
                        "Сейчас не проходит около 60 % запросов аутентификации. Кратковременное переключение "
                        "хранилища сессий в 11:46 UTC уже завершилось, но сервис аутентификации получает "
                        "примерно в 15 раз больше запросов, чем обычно, — в основном это автоматические "
                        "повторы."
                    ),
                    "es": (
                        "Falla alrededor del 60 % de las peticiones de autenticación. La breve conmutación "
                        "de nuestro almacén de sesiones a las 11:46 UTC ya ha terminado, pero el servicio de "
                        "autenticación recibe unas 15 veces su tráfico habitual, casi todo reintentos "
                        "automáticos."
                    ),
                    "nb": (
                        "Rundt 60 % av autentiseringsforespørslene feiler. En kort failover i sesjonslageret "
                        "vårt kl. 11:46 UTC er over, men autentiseringstjenesten får omtrent 15 ganger så "
                        "mye trafikk som normalt, for det meste automatiske nye forsøk."
                    ),
                },
            },
            {
                "minutes_after_start": 21,
                "status": "identified",
                "body": {
                    "en": (
                        "Clients are retrying failed token requests at fixed intervals, in synchronised "
                        "waves that keep the authentication service saturated. We are adding capacity and "
                        "turning on load shedding so that the service can recover. Please do not add extra "
                        "retries on your side; our SDKs will reconnect on their own."
                    ),
                    "ru": (
                        "Клиенты повторяют неудачные запросы токенов через фиксированные интервалы, и эти "
                        "повторы приходят синхронными волнами, не давая сервису аутентификации "
                        "восстановиться. Добавляем мощности и включаем сброс избыточной нагрузки. "
                        "Пожалуйста, не добавляйте собственных повторов: наши SDK переподключатся сами."
                    ),
                    "es": (
                        "Los clientes reintentan las peticiones de token fallidas a intervalos fijos, en "
                        "oleadas sincronizadas que mantienen saturado el servicio de autenticación. Estamos "
                        "añadiendo capacidad y activando el descarte de carga para que el servicio se "
                        "recupere. Les pedimos que no añadan reintentos por su cuenta: nuestros SDK se "
                        "reconectarán solos."
                    ),
                    "nb": (
                        "Klientene prøver mislykkede token-forespørsler på nytt med faste intervaller, i "
                        "synkroniserte bølger som holder autentiseringstjenesten overbelastet. Vi legger til "
                        "kapasitet og slår på lastavlastning slik at tjenesten kan hente seg inn. Vi ber "
                        "dere om ikke å legge inn egne, ekstra forsøk; SDK-ene våre kobler seg til igjen av "
                        "seg selv."
                    ),
                },
            },
            {
                "minutes_after_start": 55,
                "status": "monitoring",
                "body": {
                    "en": (
                        "Load shedding is active and the authentication service is recovering: over 99% of "
                        "sign-ins and token refreshes succeed again. For the next few minutes some clients "
                        "may receive `429 Too Many Requests` with a `Retry-After` header; this is expected."
                    ),
                    "ru": (
                        "Сброс нагрузки включён, и сервис аутентификации восстанавливается: больше 99 % "
                        "входов и обновлений токенов снова проходят успешно. В ближайшие минуты часть "
                        "клиентов может получать ответ `429 Too Many Requests` с заголовком `Retry-After` — "
                        "так и задумано."
                    ),
                    "es": (
                        "El descarte de carga está activo y el servicio de autenticación se está "
                        "recuperando: más del 99 % de los inicios de sesión y renovaciones de token vuelven "
                        "a funcionar. Durante unos minutos, algunos clientes pueden recibir `429 Too Many "
                        "Requests` con una cabecera `Retry-After`; es lo esperado."
                    ),
                    "nb": (
                        "Lastavlastningen er aktiv, og autentiseringstjenesten henter seg inn: over 99 % av "
                        "innlogginger og token-fornyelser lykkes igjen. De neste minuttene kan enkelte "
                        "klienter få `429 Too Many Requests` med en `Retry-After`-header; det er forventet."
                    ),
                },
            },
            {
                "minutes_after_start": 96,
                "status": "resolved",
                "body": {
                    "en": (
                        "Traffic to the authentication service is back to normal and all error rates are at "
                        "their usual levels. We are keeping the extra capacity in place. A postmortem will "
                        "follow."
                    ),
                    "ru": (
                        "Нагрузка на сервис аутентификации вернулась к обычной, доля ошибок — на привычном "
                        "уровне. Дополнительные мощности пока оставляем. Разбор инцидента опубликуем позже."
                    ),
                    "es": (
                        "El tráfico del servicio de autenticación ha vuelto a la normalidad y todas las "
                        "tasas de error están en sus valores habituales. Mantenemos la capacidad adicional. "
                        "Publicaremos un análisis del incidente."
                    ),
                    "nb": (
                        "Trafikken til autentiseringstjenesten er tilbake på normalt nivå, og feilratene er "
                        "som vanlig. Vi beholder den ekstra kapasiteten inntil videre. En gjennomgang av "
                        "hendelsen kommer."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "en": (
                        "A 40-second failover of one shard of our session store at 11:46 UTC turned into a "
                        "55-minute authentication outage. Clients retried failed token requests at fixed "
                        "intervals and without jitter, so the retries arrived in synchronised waves that "
                        "kept the authentication service saturated long after the original fault was gone. "
                        "We recovered by shedding load at 12:41 UTC."
                    ),
                    "es": (
                        "Una conmutación de 40 segundos en un fragmento de nuestro almacén de sesiones, a "
                        "las 11:46 UTC, se convirtió en una caída de la autenticación de 55 minutos. Los "
                        "clientes reintentaban las peticiones de token fallidas a intervalos fijos y sin "
                        "*jitter*, así que los reintentos llegaban en oleadas sincronizadas que mantuvieron "
                        "saturado el servicio mucho después de que el fallo original hubiera desaparecido. "
                        "Nos recuperamos descartando carga a las 12:41 UTC."
                    ),
                },
                "customer_impact": {
                    "en": (
                        "- 11:46–12:41 UTC: between 35% and 70% of sign-in and token refresh requests "
                        "failed, with HTTP 503 or client timeouts.\n"
                        "- API calls with a valid access token kept working, but access tokens last 15 "
                        "minutes, so more and more integrations got `401 Unauthorized` as their tokens "
                        "expired. At the peak, 24% of public API requests were rejected.\n"
                        "- Dashboard users were signed out and could not sign back in.\n"
                        "- 12:41–12:55 UTC: some clients received `429 Too Many Requests` while load "
                        "shedding was active.\n"
                        "- No credentials or sessions were exposed or lost; people simply had to sign in "
                        "again."
                    ),
                    "es": (
                        "- De 11:46 a 12:41 UTC falló entre el 35 % y el 70 % de los inicios de sesión y "
                        "renovaciones de token, con HTTP 503 o por tiempo agotado en el cliente.\n"
                        "- Las llamadas a la API con un token de acceso válido siguieron funcionando, pero "
                        "los tokens duran 15 minutos, así que cada vez más integraciones recibían `401 "
                        "Unauthorized` a medida que caducaban. En el pico se rechazó el 24 % de las "
                        "peticiones a la API pública.\n"
                        "- Los usuarios del panel perdieron la sesión y no podían volver a entrar.\n"
                        "- De 12:41 a 12:55 UTC, algunos clientes recibieron `429 Too Many Requests` "
                        "mientras el descarte de carga estuvo activo.\n"
                        "- No se expuso ni se perdió ninguna credencial ni sesión; bastaba con volver a "
                        "iniciar sesión."
                    ),
                },
                "root_cause": {
                    "en": (
                        "**The trigger.** At 11:46:08 one of the six shards of the `auth-sessions` Redis "
                        "cluster failed over after its primary missed heartbeats. For 40 seconds about a "
                        "sixth of token operations failed.\n\n"
                        "**Why it did not heal.** Our JavaScript and mobile SDKs retry a failed token "
                        "refresh after a fixed 250 ms, up to five times; our server-side SDKs retry after 1, "
                        "2 and 4 seconds. Neither adds jitter. The failures during those 40 seconds put tens "
                        "of thousands of clients on exactly the same retry schedule. Each wave pushed the "
                        "authentication service to 100% CPU, which made requests slow enough to hit the "
                        "SDKs' 2-second timeout, which started another round of retries. Traffic to `POST "
                        "/oauth/token` peaked at 31,000 requests per second, against a normal 2,100.\n\n"
                        "The autoscaler did add pods, but each new pod needed 90 seconds to warm its "
                        "signing-key cache and was overwhelmed the moment it became ready. And the service "
                        "had no cheap way to refuse work: every request paid for TLS termination and a "
                        "signature check before it could be rejected."
                    ),
                    "es": (
                        "**El desencadenante.** A las 11:46:08, uno de los seis fragmentos del clúster de "
                        "Redis `auth-sessions` conmutó después de que su nodo primario dejara de responder a "
                        "los latidos (*heartbeats*). Durante 40 segundos falló aproximadamente una sexta "
                        "parte de las operaciones con tokens.\n\n"
                        "**Por qué no se recuperó solo.** Nuestros SDK de JavaScript y móviles reintentan "
                        "una renovación fallida tras 250 ms fijos, hasta cinco veces; los SDK de servidor, "
                        "tras 1, 2 y 4 segundos. Ninguno añade *jitter*. Los fallos de esos 40 segundos "
                        "dejaron a decenas de miles de clientes con exactamente el mismo calendario de "
                        "reintentos. Cada oleada llevaba la CPU del servicio al 100 %, las peticiones se "
                        "volvían tan lentas que agotaban el tiempo de espera de 2 segundos de los SDK, y eso "
                        "desencadenaba otra ronda de reintentos. El tráfico a `POST /oauth/token` llegó a 31 "
                        "000 peticiones por segundo, frente a las 2100 habituales.\n\n"
                        "El autoescalado sí añadió pods, pero cada pod nuevo tardaba 90 segundos en calentar "
                        "su caché de claves de firma y se saturaba en cuanto estaba listo. Además, el "
                        "servicio no tenía una forma barata de rechazar trabajo: cada petición pagaba la "
                        "terminación TLS y una verificación de firma antes de poder ser rechazada."
                    ),
                },
                "detection_and_response": {
                    "en": (
                        "- 11:46 — shard failover in `auth-sessions`; the shard is healthy again 40 seconds "
                        "later.\n"
                        "- 11:47 — the authentication error-rate alert pages on-call.\n"
                        "- 11:48 — incident declared; error rate still climbing.\n"
                        "- 12:03 — request logs show that over 90% of token traffic carries a "
                        "`Retry-Attempt` header of 1 or more, arriving in waves.\n"
                        "- 12:09 — decision to shed load rather than only scale out.\n"
                        "- 12:31 — per-client rate limit (5 token requests per 10 seconds) deployed at the "
                        "edge, answering `429` with a `Retry-After` randomised between 5 and 30 seconds.\n"
                        "- 12:41 — token success rate above 95%; at 12:55 the limit is relaxed.\n"
                        "- 13:24 — incident resolved.\n\n"
                        "The alert was quick. What cost us time was believing the system would recover on "
                        "its own once the shard was back: for the first 15 minutes we added capacity and "
                        "waited."
                    ),
                    "es": (
                        "- 11:46 — conmutación del fragmento de `auth-sessions`; vuelve a estar sano 40 "
                        "segundos después.\n"
                        "- 11:47 — la alerta de tasa de errores de autenticación avisa a la guardia.\n"
                        "- 11:48 — se declara el incidente; la tasa de errores sigue subiendo.\n"
                        "- 12:03 — los registros muestran que más del 90 % del tráfico de tokens lleva una "
                        "cabecera `Retry-Attempt` de 1 o más, y que llega en oleadas.\n"
                        "- 12:09 — se decide descartar carga en lugar de limitarse a escalar.\n"
                        "- 12:31 — se despliega en el borde un límite por cliente (5 peticiones de token "
                        "cada 10 segundos) que responde `429` con un `Retry-After` aleatorio de entre 5 y 30 "
                        "segundos.\n"
                        "- 12:41 — la tasa de éxito de tokens supera el 95 %; a las 12:55 se relaja el "
                        "límite.\n"
                        "- 13:24 — incidente resuelto.\n\n"
                        "La alerta llegó enseguida. Lo que nos hizo perder tiempo fue creer que el sistema "
                        "se recuperaría solo en cuanto volviera el fragmento: durante los primeros 15 "
                        "minutos añadimos capacidad y esperamos."
                    ),
                },
                "what_we_changed": {
                    "en": (
                        "- Edge rate limits on `/oauth/token`, per client ID and per IP address, are now "
                        "permanent, with a randomised `Retry-After`.\n"
                        "- New releases of every SDK (JavaScript 7.3.0, iOS and Android 5.5.0, and all "
                        "server-side SDKs) use exponential backoff with full jitter, a retry budget of 10% "
                        "of requests, and honour `Retry-After`.\n"
                        "- Authentication pods warm their key cache before reporting ready, and the minimum "
                        "number of replicas went from 6 to 12."
                    ),
                    "es": (
                        "- Los límites en el borde para `/oauth/token`, por ID de cliente y por dirección "
                        "IP, son ahora permanentes y usan un `Retry-After` aleatorio.\n"
                        "- Las nuevas versiones de todos los SDK (JavaScript 7.3.0, iOS y Android 5.5.0 y "
                        "todos los SDK de servidor) usan espera exponencial con *jitter* completo, un "
                        "presupuesto de reintentos del 10 % de las peticiones y respetan `Retry-After`.\n"
                        "- Los pods de autenticación calientan su caché de claves antes de declararse "
                        "listos, y el mínimo de réplicas ha pasado de 6 a 12."
                    ),
                },
                "what_we_will_change": {
                    "en": (
                        "- Admission control in the authentication service: when the queue is too long, "
                        "reject early, before the TLS handshake and signature checks.\n"
                        "- Contact customers still on old SDK versions with upgrade guidance, and track "
                        "adoption.\n"
                        "- Add a retry-storm scenario to our load tests: a 60-second blip followed by "
                        "synchronised retries from 50,000 simulated clients."
                    ),
                    "es": (
                        "- Control de admisión en el servicio de autenticación: cuando la cola sea demasiado "
                        "larga, rechazar pronto, antes del *handshake* TLS y de verificar firmas.\n"
                        "- Escribir a los clientes que sigan con versiones antiguas de los SDK con "
                        "instrucciones para actualizar, y seguir la adopción.\n"
                        "- Añadir a nuestras pruebas de carga un escenario de tormenta de reintentos: un "
                        "corte de 60 segundos seguido de reintentos sincronizados de 50 000 clientes "
                        "simulados."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "en": "Ship SDK releases with exponential backoff and full jitter",
                        "es": "Publicar versiones de los SDK con espera exponencial y jitter completo",
                    },
                    "owner_name": "SDK team",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "en": "Permanent edge rate limits on the token endpoint",
                        "es": "Límites permanentes en el borde para el endpoint de tokens",
                    },
                    "owner_name": "Priya Raman",
                    "state": "done",
                    "due_precision": "month",
                    "due_offset_months": 0,
                    "is_public": True,
                },
                {
                    "title": {
                        "en": "Admission control before TLS and signature checks",
                        "es": "Control de admisión antes de TLS y de la verificación de firmas",
                    },
                    "owner_name": "Identity team",
                    "state": "in_progress",
                    "due_precision": "quarter",
                    "due_offset_months": 2,
                    "is_public": True,
                },
                {
                    "title": {
                        "en": "Retry-storm scenario in the quarterly load tests",
                        "es": "Escenario de tormenta de reintentos en las pruebas de carga trimestrales",
                    },
                    "owner_name": "SRE team",
                    "state": "open",
                    "due_precision": "year",
                    "due_offset_months": 9,
                    "is_public": False,
                },
            ],
        },
    },
    {
        "key": "email-reputation-block",
        "days_ago": 13,
        "start_hour_utc": 7,
        "start_minute": 25,
        "original_language": "ru",
        "title": {
            "ru": "Задержка доставки писем получателям одного почтового провайдера",
            "en": "Delayed email delivery to recipients at one mailbox provider",
        },
        "impact": "minor",
        "components": {
            "email-delivery": "partial_outage",
        },
        "updates": [
            {
                "minutes_after_start": 0,
                "status": "investigating",
                "body": {
                    "ru": (
                        "Часть писем доставляется с задержкой. Проблема касается получателей одного крупного "
                        "почтового провайдера; письма остальным адресатам уходят как обычно. Выясняем "
                        "причину."
                    ),
                },
            },
            {
                "minutes_after_start": 10,
                "status": "identified",
                "body": {
                    "ru": (
                        "Почтовый провайдер временно ограничил приём писем с части наших IP-адресов из-за "
                        "снижения их репутации (ответ `421 4.7.28`). Письма не теряются: они стоят в очереди "
                        "и отправляются повторно. Переводим отправку на другой пул адресов."
                    ),
                },
            },
            {
                "minutes_after_start": 48,
                "status": "monitoring",
                "body": {
                    "ru": (
                        "Транзакционные письма — сброс пароля, коды входа, подтверждения заказов — "
                        "переведены на отдельный пул IP-адресов и снова доставляются за секунды. Отложенные "
                        "письма рассылок (около 240 тыс.) отправляем постепенно, чтобы не превысить лимиты "
                        "провайдера."
                    ),
                },
            },
            {
                "minutes_after_start": 190,
                "status": "monitoring",
                "body": {
                    "ru": (
                        "В очереди осталось около 30 тыс. писем рассылок. Провайдер постепенно повышает "
                        "лимиты для наших адресов; ожидаем, что очередь будет разобрана в течение двух часов."
                    ),
                },
            },
            {
                "minutes_after_start": 345,
                "status": "resolved",
                "body": {
                    "ru": (
                        "Очередь отложенных писем полностью разобрана, ограничения со стороны провайдера "
                        "сняты. Максимальная задержка составила 68 минут для транзакционных писем и 5 ч 40 "
                        "мин для рассылок. Разбор инцидента опубликуем в ближайшие дни."
                    ),
                },
            },
        ],
        "postmortem": {
            "published": True,
            "sections": {
                "summary": {
                    "ru": (
                        "С 07:04 до 12:44 UTC письма получателям одного крупного почтового провайдера "
                        "доставлялись с задержкой: транзакционные — до 68 минут, рассылки — до 5 часов 40 "
                        "минут. Провайдер понизил репутацию общего пула IP-адресов после того, как новый "
                        "аккаунт отправил через этот пул рассылку по купленной базе. Транзакционные письма "
                        "пострадали вместе с рассылками, потому что уходили с тех же адресов."
                    ),
                },
                "customer_impact": {
                    "ru": (
                        "- Затронуто около 38 % всех исходящих писем — всё, что адресовано этому "
                        "провайдеру.\n"
                        "- Около 61 тыс. транзакционных писем (сброс пароля, коды входа, подтверждения "
                        "заказов) задержаны на срок до 68 минут. Коды входа действуют 10 минут, поэтому "
                        "часть пользователей не смогла войти с первой попытки.\n"
                        "- Около 240 тыс. писем рассылок доставлены с задержкой до 5 ч 40 мин.\n"
                        "- Ни одно письмо не потеряно: все отложенные письма в итоге доставлены."
                    ),
                },
                "root_cause": {
                    "ru": (
                        "Новые аккаунты на пробном тарифе отправляют почту через общий пул `shared-pool-b` "
                        "из 16 IP-адресов. В 06:21 один такой аккаунт начал рассылку по купленной базе: за "
                        "40 минут ушло 182 тыс. писем, около 9 % адресов не существовало, а доля жалоб на "
                        "спам у провайдера превысила 0,8 %. Наш лимит для новых аккаунтов — 50 тыс. писем в "
                        "сутки — на этот аккаунт не распространялся: он был создан через партнёрский API, в "
                        "котором лимиты не применялись.\n\n"
                        "В 07:04 провайдер начал отвечать `421 4.7.28` на все письма с адресов пула. В том "
                        "же пуле шла и транзакционная почта небольших аккаунтов: отдельный пул для "
                        "транзакционных писем был предусмотрен только на платных тарифах."
                    ),
                },
                "detection_and_response": {
                    "ru": (
                        "- 06:21 — начало рассылки.\n"
                        "- 07:04 — первые ответы `421 4.7.28`.\n"
                        "- 07:16 — срабатывает алерт: задержка доставки выше 10 минут.\n"
                        "- 07:25 — инцидент объявлен на статус-странице.\n"
                        "- 07:31 — аккаунт-отправитель заблокирован, рассылка остановлена.\n"
                        "- 07:38 — начат перенос транзакционной почты на пул `transactional-pool-a`.\n"
                        "- 08:09 — перенос завершён, транзакционные письма снова доставляются за секунды.\n"
                        "- 08:40 — отправлен запрос в службу postmaster провайдера.\n"
                        "- 12:44 — ограничения сняты, доставлен последний отложенный пакет.\n\n"
                        "Аномальную рассылку мы заметили слишком поздно: алерт по доле жалоб на спам "
                        "считался по суточному окну и до начала задержек так и не сработал."
                    ),
                },
                "what_we_changed": {
                    "ru": (
                        "- Лимиты для новых аккаунтов теперь применяются при любом способе создания, включая "
                        "партнёрский API.\n"
                        "- Транзакционные письма всех аккаунтов, независимо от тарифа, отправляются с "
                        "отдельного пула.\n"
                        "- Алерты на долю жалоб и несуществующих адресов считаются по 15-минутному окну."
                    ),
                },
                "what_we_will_change": {
                    "ru": (
                        "- Автоматически приостанавливать рассылку, если среди первых 1 000 писем больше 5 % "
                        "адресов не существует.\n"
                        "- Выделить аккаунтам младше 30 дней собственный пул IP-адресов, чтобы их репутация "
                        "не влияла на остальных клиентов."
                    ),
                },
            },
            "action_items": [
                {
                    "title": {
                        "ru": "Лимиты для аккаунтов, созданных через партнёрский API",
                        "en": "Sending limits for accounts created through the partner API",
                    },
                    "owner_name": "Olga Smirnova",
                    "state": "done",
                    "due_precision": "day",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "ru": "Отдельный пул для транзакционных писем на всех тарифах",
                        "en": "Separate pool for transactional email on every plan",
                    },
                    "owner_name": "Deliverability team",
                    "state": "done",
                    "due_precision": "month",
                    "due_offset_months": 0,
                    "is_public": True,
                },
                {
                    "title": {
                        "ru": "Автоприостановка рассылок с высокой долей несуществующих адресов",
                        "en": "Automatically pause campaigns with a high share of invalid addresses",
                    },
                    "owner_name": "Deliverability team",
                    "state": "in_progress",
                    "due_precision": "month",
                    "due_offset_months": 1,
                    "is_public": True,
                },
                {
                    "title": {
                        "ru": "Отдельный пул IP-адресов для аккаунтов младше 30 дней",
                        "en": "Dedicated IP pool for accounts younger than 30 days",
                    },
                    "owner_name": "Olga Smirnova",
                    "state": "open",
                    "due_precision": "quarter",
                    "due_offset_months": 2,
                    "is_public": False,
                },
            ],
        },
    },
    {
        "key": "webhook-slow-endpoint-retries",
        "days_ago": 0,
        "original_language": "en",
        "title": {
            "en": "Delayed webhook deliveries in the EU region",
            "ru": "Задержка доставки вебхуков в регионе ЕС",
            "es": "Retrasos en la entrega de webhooks en la región de la UE",
            "nb": "Forsinket levering av webhooks i EU-regionen",
        },
        "impact": "minor",
        "components": {
            "webhook-delivery": "degraded_performance",
        },
        "updates": [
            {
                "minutes_after_start": 3,
                "status": "investigating",
                "body": {
                    "en": (
                        "Some webhooks are arriving later than usual — currently 2 to 4 minutes after the "
                        "event instead of a few seconds. No events have been lost. We are investigating."
                    ),
                    "ru": (
                        "Часть вебхуков приходит позже обычного — сейчас через 2–4 минуты после события "
                        "вместо нескольких секунд. События не теряются. Выясняем причину."
                    ),
                    "es": (
                        "Algunos webhooks llegan más tarde de lo habitual: ahora mismo, entre 2 y 4 minutos "
                        "después del evento, en lugar de unos segundos. No se ha perdido ningún evento. Lo "
                        "estamos investigando."
                    ),
                    "nb": (
                        "Noen webhooks kommer fram senere enn vanlig — for øyeblikket 2 til 4 minutter etter "
                        "hendelsen i stedet for noen få sekunder. Ingen hendelser har gått tapt. Vi "
                        "undersøker saken."
                    ),
                },
            },
            {
                "minutes_after_start": 18,
                "status": "identified",
                "body": {
                    "en": (
                        "Several dispatcher nodes in our EU region are busy retrying a large batch of "
                        "deliveries to endpoints that keep timing out, which slows down other deliveries on "
                        "the same partitions. We are moving these retries to the slow-lane queue "
                        "`webhooks.retry.slow`."
                    ),
                    "ru": (
                        "Несколько обработчиков доставки в регионе ЕС заняты повторной отправкой большого "
                        "количества вебхуков на эндпоинты, которые не отвечают вовремя, и из-за этого "
                        "замедляется доставка остальных событий в тех же партициях. Переносим эти повторы в "
                        "отдельную «медленную» очередь `webhooks.retry.slow`."
                    ),
                    "es": (
                        "Varios nodos de entrega de nuestra región de la UE están ocupados reintentando un "
                        "gran lote de entregas a endpoints que siguen sin responder a tiempo, lo que retrasa "
                        "el resto de entregas de las mismas particiones. Estamos pasando estos reintentos a "
                        "la cola lenta `webhooks.retry.slow`."
                    ),
                    "nb": (
                        "Flere leveringsnoder i EU-regionen er opptatt med nye forsøk på en stor mengde "
                        "leveranser til endepunkter som ikke svarer i tide, og det forsinker andre "
                        "leveranser på de samme partisjonene. Vi flytter disse nye forsøkene til den "
                        "langsomme køen `webhooks.retry.slow`."
                    ),
                },
            },
            {
                "minutes_after_start": 34,
                "status": "monitoring",
                "body": {
                    "en": (
                        "The retries have been moved to the slow lane and the delay is falling; it is now "
                        "around 50 seconds. We expect delivery times to be back to normal within 15 minutes."
                    ),
                    "ru": (
                        "Повторы перенесены в медленную очередь, задержка снижается и сейчас составляет "
                        "около 50 секунд. Ожидаем, что в течение 15 минут время доставки вернётся к обычному."
                    ),
                    "es": (
                        "Hemos pasado los reintentos a la cola lenta y el retraso está bajando; ahora es de "
                        "unos 50 segundos. Esperamos que los tiempos de entrega vuelvan a la normalidad en "
                        "los próximos 15 minutos."
                    ),
                    "nb": (
                        "De nye forsøkene er flyttet til den langsomme køen, og forsinkelsen går ned; nå er "
                        "den på rundt 50 sekunder. Vi regner med at leveringstiden er normal igjen innen 15 "
                        "minutter."
                    ),
                },
            },
        ],
    },
]

MAINTENANCES = [
    {
        "key": "postgres-16-upgrade",
        "days_from_now": -19,
        "start_hour_utc": 2,
        "duration_minutes": 120,
        "original_language": "en",
        "title": {
            "en": "Primary database upgrade to PostgreSQL 16",
            "nb": "Oppgradering av primærdatabasen til PostgreSQL 16",
        },
        "components": ["database", "scheduled-jobs", "data-exports"],
        "body": {
            "en": (
                "We will upgrade our primary database cluster from PostgreSQL 15 to PostgreSQL 16.\n\n"
                "- The upgrade itself is done on a logical replica; the only interruption is the switchover, "
                "which we expect to take under 60 seconds.\n"
                "- During the switchover, API requests that write data may fail with `503` and should be "
                "retried. Reads are not affected.\n"
                "- Scheduled jobs due during the window will start up to 10 minutes late. Exports requested "
                "during the window will be queued and delivered afterwards.\n\n"
                "No action is needed on your side."
            ),
            "nb": (
                "Vi oppgraderer primærdatabaseklyngen vår fra PostgreSQL 15 til PostgreSQL 16.\n\n"
                "- Selve oppgraderingen gjøres på en logisk replika; det eneste avbruddet er omkoblingen, "
                "som vi regner med tar under 60 sekunder.\n"
                "- Under omkoblingen kan API-kall som skriver data, feile med `503` og bør prøves på nytt. "
                "Lesing påvirkes ikke.\n"
                "- Planlagte jobber som skal kjøre i vedlikeholdsvinduet, kan starte opptil 10 minutter "
                "forsinket. Eksporter som bestilles i vinduet, settes i kø og leveres etterpå.\n\n"
                "Dere trenger ikke å gjøre noe."
            ),
        },
    },
    {
        "key": "webhook-broker-migration",
        "days_from_now": 3,
        "start_hour_utc": 5,
        "duration_minutes": 60,
        "original_language": "ru",
        "title": {
            "ru": "Перенос очередей вебхуков и событий на новый кластер",
            "en": "Moving the webhook and event queues to a new cluster",
        },
        "components": ["webhook-delivery", "event-stream"],
        "body": {
            "ru": (
                "Переносим очереди `webhooks.outbound` и `events.live` на новый кластер брокеров сообщений с "
                "большим числом партиций.\n\n"
                "- Во время переноса вебхуки могут приходить с задержкой до 5 минут. События не потеряются: "
                "всё, что поступит во время работ, будет доставлено.\n"
                "- Подключения к потоку событий (SSE) один раз разорвутся; клиенты, которые передают "
                "заголовок `Last-Event-ID`, продолжат с того же места.\n"
                "- Подписи вебхуков, IP-адреса отправки и формат событий не меняются.\n\n"
                "С вашей стороны никаких действий не требуется."
            ),
            "en": (
                "We are moving the `webhooks.outbound` and `events.live` queues to a new message broker "
                "cluster with more partitions.\n\n"
                "- During the move, webhooks may arrive up to 5 minutes late. No events will be lost: "
                "everything received during the work will be delivered.\n"
                "- Event stream (SSE) connections will be dropped once; clients that send the "
                "`Last-Event-ID` header will resume where they left off.\n"
                "- Webhook signatures, sending IP addresses and the event format do not change.\n\n"
                "No action is needed on your side."
            ),
        },
    },
    {
        "key": "token-signing-key-rotation",
        "days_from_now": 9,
        "start_hour_utc": 6,
        "duration_minutes": 30,
        "original_language": "es",
        "title": {
            "es": "Rotación de las claves de firma de tokens",
            "en": "Rotation of the token signing keys",
        },
        "components": ["authentication", "public-api"],
        "body": {
            "es": (
                "Vamos a rotar las claves con las que firmamos los tokens de acceso y los tokens de "
                "identidad (OIDC).\n\n"
                "- La nueva clave se publica con antelación en `/.well-known/jwks.json`, así que las "
                "integraciones que descargan el JWKS de forma periódica no notarán nada.\n"
                "- Si su integración valida los tokens con una clave pública copiada a mano o guardada en "
                "caché durante más de 24 horas, actualícela antes de la ventana de mantenimiento.\n"
                "- Los tokens emitidos antes de la rotación seguirán siendo válidos hasta que caduquen.\n\n"
                "No esperamos errores ni interrupciones durante la ventana."
            ),
            "en": (
                "We are rotating the keys used to sign access tokens and identity (OIDC) tokens.\n\n"
                "- The new key is published in advance at `/.well-known/jwks.json`, so integrations that "
                "fetch the JWKS periodically will not notice anything.\n"
                "- If you validate tokens with a public key copied by hand, or cached for more than 24 "
                "hours, update it before the maintenance window.\n"
                "- Tokens issued before the rotation remain valid until they expire.\n\n"
                "We do not expect any errors or interruptions during the window."
            ),
        },
    },
]

load("@bazel_gazelle//:deps.bzl", "go_repository")

def go_dependencies():
    go_repository(
        name = "com_github_aclements_go_moremath",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aclements/go-moremath",
        sum = "h1:xlwdaKcTNVW4PtpQb8aKA4Pjy0CdJHEqvFbAnvR5m2g=",
        version = "v0.0.0-20210112150236-f10218a38794",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2",
        sum = "h1:1kt7m/EKcEHt5mlyyxx9cSlMddRPIKbjb6DIQsu4HPk=",
        version = "v1.46.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_aws_protocol_eventstream",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream",
        sum = "h1:GPRlPwz40I2B2VrBEASOA3Bi77NyeqejNLkifosX0rs=",
        version = "v1.7.20",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_config",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/config",
        sum = "h1:h090b3O5S17bF87/0ysHZuIT/7DCb4EBRFQX2PMVPCw=",
        version = "v1.33.3",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_credentials",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/credentials",
        sum = "h1:tToOYM/LXev4NpfWlIYGDvBvjHmJ3HXpRU9ppl+pM6k=",
        version = "v1.20.3",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_dynamodb_attributevalue",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue",
        sum = "h1:Q80gSrhQixdH2AM7N/BwD0zVYZZN9xXAqTXdLFY/w2w=",
        version = "v1.21.3",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_dynamodb_expression",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression",
        sum = "h1:IIHlSrn6X+2hlluf4HYBsFvLFNR8wQjkut8Ux6eC30Q=",
        version = "v1.9.3",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_ec2_imds",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/ec2/imds",
        sum = "h1:Ldv7RPHs7qwwTscRjAl3YBud32f3BvdAGRmSvAx5L38=",
        version = "v1.19.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_rds_auth",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/rds/auth",
        sum = "h1:gUL58vhLLkyx23+6We6SuydN+K8IwsO6XN6b9NhS29Y=",
        version = "v1.7.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_s3_manager",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/s3/manager",
        sum = "h1:S61/E3N01oral6B3y9hZ2E1iFDqCZPPOBoBQretCnBI=",
        version = "v1.17.75",
    )

    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_feature_s3_transfermanager",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager",
        sum = "h1:vsFkmFrfzODkxVbyuPLscv5j5lC8KbG48LZwV+p56Y0=",
        version = "v0.4.3",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_internal_configsources",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/internal/configsources",
        sum = "h1:q/PSLGuRWCChWg+dLnb9dWOnrCxJtnboXbBtFoqqRrI=",
        version = "v1.5.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_internal_endpoints_v2",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/internal/endpoints/v2",
        sum = "h1:6fl86IPqKEXoySqiOWdfgbEp9OVbn44zTfEICNEBDhY=",
        version = "v2.8.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_internal_ini",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/internal/ini",
        sum = "h1:bIqFDwgGXXN1Kpp99pDOdKMTTb5d2KyU5X/BZxjOkRo=",
        version = "v1.8.3",
    )

    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_internal_v4a",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/internal/v4a",
        sum = "h1:XMgIRS+uW9F3yFKnXGRrI9pkHi99CXTmoz2kz2/TGBA=",
        version = "v1.5.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_dynamodb",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/dynamodb",
        sum = "h1:Qs5KY7LC+/lMasuJOujgDtl3In6MHxnceULr2+V/Ldc=",
        version = "v1.67.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_dynamodbstreams",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams",
        sum = "h1:gyRsDiymu1UGrBPu4/viOrY08ifTSdUcrAwpYHXyXd4=",
        version = "v1.40.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_internal_accept_encoding",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/internal/accept-encoding",
        sum = "h1:bAdDl/HkGCcGPoe25ToSHEw23VIxt6CT5fLcg111BKg=",
        version = "v1.13.19",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_internal_checksum",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/internal/checksum",
        sum = "h1:CO485zrLOZBeq8mrdsudc8cjyhvC4LY4JFt8ZfHvXZ0=",
        version = "v1.11.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_internal_endpoint_discovery",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/internal/endpoint-discovery",
        sum = "h1:Ulv5rW95wuDrA/ToJ/KidTwvlJU/w4M6BD0AU+gIm7s=",
        version = "v1.13.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_internal_presigned_url",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/internal/presigned-url",
        sum = "h1:ZtHYnumr6QyxhzEzNZwzQTFJEXOswrZqTTkRxthwvr4=",
        version = "v1.14.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_internal_s3shared",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/internal/s3shared",
        sum = "h1:Enx5JcIy/o90kio1LFZ/HguxIsos3clbGuSpGdyshX8=",
        version = "v1.20.2",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_kms",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/kms",
        sum = "h1:qvCvEQxFqL4LLCFLuvrNovy2iLYSU74gedrahGvT6vI=",
        version = "v1.59.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_s3",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/s3",
        sum = "h1:4PokON/ISKuD6Zl062n4WfQNnEFBMHvfeJy73Jp7K+g=",
        version = "v1.111.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_secretsmanager",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/secretsmanager",
        sum = "h1:ENAOSENVUnUbkAXvehEZyryiFQgeRnM0HPflJ8/7lZw=",
        version = "v1.48.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_signin",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/signin",
        sum = "h1:c3k+k/CS4L+sAIH6fxikL+g5g2LpeNczaoyjjw1iMKI=",
        version = "v1.9.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_sns",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/sns",
        sum = "h1:fD02zeo2Kc4hlFUvGX3FfA+gGOwd4BBcYgPDHDEzx9Y=",
        version = "v1.46.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_sqs",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/sqs",
        sum = "h1:FghdY9ebeZf9iIan9J0xfBEID8arYibNBeZ1XHvs4oA=",
        version = "v1.51.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_ssm",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/ssm",
        sum = "h1:JqKSBJlS68F4nxoPLwD7tB3lJ3gWEK9p+7eOiBE/lsM=",
        version = "v1.77.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_sso",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/sso",
        sum = "h1:+rqBaOq7jzInjY8M12hr+zEe85JpRll9BjMx38r33Ok=",
        version = "v1.37.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_ssooidc",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/ssooidc",
        sum = "h1:hzM3GslEAOBcLn3DHH6ENToFi+vXP+n02W+x6zejAIM=",
        version = "v1.42.0",
    )
    go_repository(
        name = "com_github_aws_aws_sdk_go_v2_service_sts",
        build_directives = [
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints @com_github_aws_aws_sdk_go_v2//internal/endpoints",
            "gazelle:resolve go github.com/aws/aws-sdk-go-v2/internal/endpoints/awsrulesfn @com_github_aws_aws_sdk_go_v2//internal/endpoints/awsrulesfn",
        ],
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/aws-sdk-go-v2/service/sts",
        sum = "h1:N7Ey8obY3uSui+cxl0OUzFlFmkxSucoJnrniFhw+cLc=",
        version = "v1.49.0",
    )
    go_repository(
        name = "com_github_aws_smithy_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aws/smithy-go",
        sum = "h1:R/nXH00c8qcfCzQVELtRw+eLQWtzv+VAIEFJ1/xxXlQ=",
        version = "v1.28.1",
    )
    go_repository(
        name = "com_github_azure_azure_amqp_common_go_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-amqp-common-go/v3",
        sum = "h1:uDF62mbd9bypXWi19V1bN5NZEO84JqgmI5G73ibAmrk=",
        version = "v3.2.3",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_azcore",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/azcore",
        sum = "h1:zvXfGJCWvywnCA814d8ZiVyt+fm9nnTE8xSb99zRyfo=",
        version = "v1.23.1",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_azidentity",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/azidentity",
        sum = "h1:u93s+zU2JD62im61Bm5CZIc1ZrOJaIAWEg0WOrMVkEo=",
        version = "v1.14.1",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_internal",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/internal",
        sum = "h1:fhqpLE3UEXi9lPaBRpQ6XuRW0nU7hgg4zlmZZa+a9q4=",
        version = "v1.12.0",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_messaging_azservicebus",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus",
        sum = "h1:kE5kpeiSqu4jcCQ/sWuyggMXJ/pT6oQ99+8hwPmyeJ0=",
        version = "v1.10.0",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_security_keyvault_azkeys",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/security/keyvault/azkeys",
        sum = "h1:MaKvxE6D0KkjOg6Wd9M00iqP5PR0kUxCfiezes4JweM=",
        version = "v1.5.0",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_security_keyvault_internal",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/security/keyvault/internal",
        sum = "h1:nCYfgcSyHZXJI8J0IWE5MsCGlb2xp9fJiXyxWgmOFg4=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_github_azure_azure_sdk_for_go_sdk_storage_azblob",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob",
        sum = "h1:irsmOWwkp0KCTTNS5e2hdFeIvSQClQo2No3IaNmL3Vw=",
        version = "v1.8.0",
    )
    go_repository(
        name = "com_github_azure_go_amqp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Azure/go-amqp",
        sum = "h1:9VlH/LEWr386XWWJRNON0eslFqSClYBXP4HewvIqkDQ=",
        version = "v1.7.0",
    )
    go_repository(
        name = "com_github_azuread_microsoft_authentication_library_for_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/AzureAD/microsoft-authentication-library-for-go",
        sum = "h1:MDT4FxAPve5FnYn6vOL1r7RCRDG+l9cI7a5LlCuHsqA=",
        version = "v1.9.0",
    )
    go_repository(
        name = "com_github_beorn7_perks",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/beorn7/perks",
        sum = "h1:VlbKKnNfV8bJzeqoa4cOKqO6bYr3WgKZxO8Z16+hsOM=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_cenkalti_backoff_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cenkalti/backoff/v5",
        sum = "h1:ZN+IMa753KfX5hd8vVaMixjnqRZ3y8CuJKRKj1xcsSM=",
        version = "v5.0.3",
    )
    go_repository(
        name = "com_github_cespare_xxhash_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cespare/xxhash/v2",
        sum = "h1:UL815xU9SqsFlibzuggzjXhog7bL6oX9BbNZnL2UFvs=",
        version = "v2.3.0",
    )
    go_repository(
        name = "com_github_cevatbarisyilmaz_ara",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cevatbarisyilmaz/ara",
        sum = "h1:SGH10hXpBJhhTlObuZzTuFn1rrdmjQImITXnZVPSodc=",
        version = "v0.0.4",
    )

    go_repository(
        name = "com_github_cncf_xds_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cncf/xds/go",
        sum = "h1:aBangftG7EVZoUb69Os8IaYg++6uMOdKK83QtkkvJik=",
        version = "v0.0.0-20260202195803-dba9d589def2",
    )
    go_repository(
        name = "com_github_cpuguy83_go_md2man_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cpuguy83/go-md2man/v2",
        sum = "h1:XJtiaUW6dEEqVuZiMTn1ldk455QWwEIsMIJlo5vtkx0=",
        version = "v2.0.6",
    )
    go_repository(
        name = "com_github_davecgh_go_spew",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/davecgh/go-spew",
        sum = "h1:U9qPSI2PIWSS1VwoXQT9A3Wy9MM3WgvqSxFWenqJduM=",
        version = "v1.1.2-0.20180830191138-d8f796af33cc",
    )
    go_repository(
        name = "com_github_dlclark_regexp2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dlclark/regexp2",
        sum = "h1:G/nrcoOa7ZXlpoa/91N3X7mM3r8eIlMBBJZvsz/mxKI=",
        version = "v1.11.0",
    )

    go_repository(
        name = "com_github_envoyproxy_go_control_plane",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane",
        sum = "h1:hbG2kr4RuFj222B6+7T83thSPqLjwBIfQawTkC++2HA=",
        version = "v0.14.0",
    )
    go_repository(
        name = "com_github_envoyproxy_go_control_plane_envoy",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane/envoy",
        sum = "h1:SWe0x6yfglnxuvOiYgTTnNq7QD/yvqthOh1RBI8Bj8w=",
        version = "v1.39.1-0.20260819172001-e6e3fd93e4be",
    )
    go_repository(
        name = "com_github_envoyproxy_go_control_plane_ratelimit",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/go-control-plane/ratelimit",
        sum = "h1:/G9QYbddjL25KvtKTv3an9lx6VBE2cnb8wp1vEGNYGI=",
        version = "v0.1.0",
    )
    go_repository(
        name = "com_github_envoyproxy_protoc_gen_validate",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/envoyproxy/protoc-gen-validate",
        sum = "h1:MVQghNeW+LZcmXe7SY1V36Z+WFMDjpqGAGacLe2T0ds=",
        version = "v1.3.3",
    )
    go_repository(
        name = "com_github_felixge_httpsnoop",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/felixge/httpsnoop",
        sum = "h1:3YtUj32ZZkqZtt3sZZsClsymw/QDuVfpNhoA31zeORc=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_fsnotify_fsnotify",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fsnotify/fsnotify",
        sum = "h1:b0/UzAf9yR5rhf3RPm9gf3ehBPpf0oZKIjtpKrx59Ho=",
        version = "v1.10.1",
    )
    go_repository(
        name = "com_github_go_chi_chi_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-chi/chi/v5",
        sum = "h1:CMwsvRVTbXVytCk1Wd72Zy1LAsAh9GxMmSNWLHCG618=",
        version = "v5.2.2",
    )
    go_repository(
        name = "com_github_go_jose_go_jose_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-jose/go-jose/v4",
        sum = "h1:RjgjO2LOtWOJKUC5wpwY9LR3B3vwVAz6JS2YHfYU6eA=",
        version = "v4.1.5",
    )
    go_repository(
        name = "com_github_go_logr_logr",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/logr",
        sum = "h1:tG4xh9yMsRCAiodLVTxyrkzSZ9+o0L1Kg/+cPVcbP/8=",
        version = "v1.4.4",
    )
    go_repository(
        name = "com_github_go_logr_stdr",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-logr/stdr",
        sum = "h1:hSWxHoqTgW2S2qGc0LTAI563KZ5YKYRhT3MFKZMbjag=",
        version = "v1.2.2",
    )
    go_repository(
        name = "com_github_go_sql_driver_mysql",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-sql-driver/mysql",
        sum = "h1:arlSnNLq6a5yxGxV7qg9lF4j0C+KwD6NbQyKr9QL6ME=",
        version = "v1.10.1",
    )
    go_repository(
        name = "com_github_gogo_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gogo/protobuf",
        sum = "h1:Ov1cvc58UF3b5XjBnZv7+opcTcQFZebYjWzi34vdm4Q=",
        version = "v1.3.2",
    )
    go_repository(
        name = "com_github_golang_glog",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/glog",
        sum = "h1:DrW6hGnjIhtvhOIiAKT6Psh/Kd/ldepEa81DKeiRJ5I=",
        version = "v1.2.5",
    )
    go_repository(
        name = "com_github_golang_jwt_jwt_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang-jwt/jwt/v5",
        sum = "h1:kYf81DTWFe7t+1VvL7eS+jKFVWaUnK9cB1qbwn63YCY=",
        version = "v5.3.1",
    )
    go_repository(
        name = "com_github_golang_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/protobuf",
        sum = "h1:i7eJL8qZTpSEXOPTxNKhASYpMn+8e5Q6AdndVa1dWek=",
        version = "v1.5.4",
    )
    go_repository(
        name = "com_github_google_go_cmp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-cmp",
        sum = "h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_google_go_replayers_grpcreplay",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-replayers/grpcreplay",
        sum = "h1:R90FMYaA6GQNhi/GG0D4zS14HEQ+wpO8bQAV0Qwyt08=",
        version = "v1.5.1",
    )
    go_repository(
        name = "com_github_google_go_replayers_httpreplay",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-replayers/httpreplay",
        sum = "h1:VM1wEyyjaoU53BwrOnaf9VhAyQQEEioJvFYxYcLRKzk=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_github_google_martian_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/martian/v3",
        sum = "h1:DIhPTQrbPkgs2yJYdXU/eNACCG5DVQjySNRNlflZ9Fc=",
        version = "v3.3.3",
    )
    go_repository(
        name = "com_github_google_s2a_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/s2a-go",
        sum = "h1:LGD7gtMgezd8a/Xak7mEWL0PjoTQFvpRudN895yqKW0=",
        version = "v0.1.9",
    )
    go_repository(
        name = "com_github_google_subcommands",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/subcommands",
        sum = "h1:vWQspBTo2nEqTUFita5/KeEWlUL8kQObDFbub/EN9oE=",
        version = "v1.2.0",
    )

    go_repository(
        name = "com_github_google_uuid",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/uuid",
        sum = "h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=",
        version = "v1.6.0",
    )
    go_repository(
        name = "com_github_google_wire",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/wire",
        sum = "h1:JxUKI6+CVBgCO2WToKy/nQk0sS+amI9z9EjVmdaocj4=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_googleapis_enterprise_certificate_proxy",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/googleapis/enterprise-certificate-proxy",
        sum = "h1:OFdQ3tnCX/zaQ0Cedur3D3z7kI6HiLX9g3TiAN4/DFU=",
        version = "v0.3.21",
    )
    go_repository(
        name = "com_github_googleapis_gax_go_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/googleapis/gax-go/v2",
        sum = "h1:AtqTN21IXMMWo99LiEVAiBfNNQmO40d8xUfZI640mc0=",
        version = "v2.24.1",
    )
    go_repository(
        name = "com_github_googlecloudplatform_cloudsql_proxy",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/cloudsql-proxy",
        sum = "h1:Tfc3yu17MyxNtolRZ684FFOAH28mhb0bge/ZwtyMXf0=",
        version = "v1.38.3",
    )
    go_repository(
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_detectors_gcp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/detectors/gcp",
        sum = "h1:edOuLWehuDlQ68roBF900Y09jvBoJP5W5d/wusz9nWY=",
        version = "v1.37.0",
    )
    go_repository(
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_exporter_metric",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/exporter/metric",
        sum = "h1:BeC1Bub7Ttk33TF8v3ZeQ2L8acvz4ZLqtQuLyJAZquc=",
        version = "v0.61.0",
    )
    go_repository(
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_internal_resourcemapping",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/internal/resourcemapping",
        sum = "h1:KhpL26/GviYITHMCEGGqT/l50siFaBCBBKrjv6Z0G/k=",
        version = "v0.61.0",
    )
    go_repository(
        name = "com_github_grpc_ecosystem_grpc_gateway_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/grpc-gateway/v2",
        sum = "h1:/Tnpcb2E0Pz/tN9s3bfEY2Q8ePCEX9iuS+cneUwncnw=",
        version = "v2.30.0",
    )
    go_repository(
        name = "com_github_inconshreveable_mousetrap",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/inconshreveable/mousetrap",
        sum = "h1:wN+x4NVGpMsO7ErUn/mUI3vEoE6Jt13X2s0bqwp9tc8=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_johannesboyne_gofakes3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/johannesboyne/gofakes3",
        sum = "h1:I9VEzPWvvAUAGzDlhYFoZjF0AXMlkcEyZlmBwiI6Oms=",
        version = "v1.2.0",
    )

    go_repository(
        name = "com_github_klauspost_compress",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/klauspost/compress",
        sum = "h1:zWNoFqq/lSuYQRim3dUXlXeA0IqwuZGicdG5ZTfY5j4=",
        version = "v1.20.3",
    )
    go_repository(
        name = "com_github_kr_pretty",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kr/pretty",
        sum = "h1:flRD4NNwYAUpkphVc1HcthR4KEIFJ65n8Mw5qdRn3LE=",
        version = "v0.3.1",
    )
    go_repository(
        name = "com_github_kr_text",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kr/text",
        sum = "h1:5Nx0Ya0ZqY2ygV366QzturHI13Jq95ApcVaJBhpS+AY=",
        version = "v0.2.0",
    )
    go_repository(
        name = "com_github_kylelemons_godebug",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/kylelemons/godebug",
        sum = "h1:RPNrshWIDI6G2gRW9EHilWtl7Z6Sb1BR0xunSBf0SNc=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_lib_pq",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lib/pq",
        sum = "h1:tTWxr2YLKwIvK90ZXEw8GP7UFHtcbTtty8zsI+YjrfQ=",
        version = "v1.12.3",
    )
    go_repository(
        name = "com_github_lithammer_shortuuid_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lithammer/shortuuid/v3",
        sum = "h1:trX0KTHy4Pbwo/6ia8fscyHoGA+mf1jWbPJVuvyJQQ8=",
        version = "v3.0.7",
    )
    go_repository(
        name = "com_github_munnerz_goautoneg",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/munnerz/goautoneg",
        sum = "h1:C3w9PqII01/Oq1c1nUAm88MOHcQC9l5mIlSMApZMrHA=",
        version = "v0.0.0-20191010083416-a7dc8b61c822",
    )
    go_repository(
        name = "com_github_oklog_ulid",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/oklog/ulid",
        sum = "h1:EGfNDEx6MqHz8B3uNV6QAib1UR2Lm97sHi3ocA6ESJ4=",
        version = "v1.3.1",
    )
    go_repository(
        name = "com_github_pierrec_lz4_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pierrec/lz4/v4",
        sum = "h1:GjG1TJ1V4IzKP8L96muuuDNpTwd7D+l2ccXrjAbe014=",
        version = "v4.1.33",
    )
    go_repository(
        name = "com_github_pkg_browser",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pkg/browser",
        sum = "h1:+mdjkGKdHQG3305AYmdv1U2eRNDiU2ErMBj1gwrq8eQ=",
        version = "v0.0.0-20240102092130-5ac0b6a4141c",
    )
    go_repository(
        name = "com_github_pkg_errors",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pkg/errors",
        sum = "h1:FEBLx1zS214owpjy7qsBeixbURkuhQAwrK5UwLGTwt4=",
        version = "v0.9.1",
    )
    go_repository(
        name = "com_github_planetscale_vtprotobuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/planetscale/vtprotobuf",
        sum = "h1:GFCKgmp0tecUJ0sJuv4pzYCqS9+RGSn52M3FUwPs+uo=",
        version = "v0.6.1-0.20240319094008-0393e58bdf10",
    )
    go_repository(
        name = "com_github_pmezard_go_difflib",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pmezard/go-difflib",
        sum = "h1:Jamvg5psRIccs7FGNTlIRMkT8wgtp5eCXdBlqhYGL6U=",
        version = "v1.0.1-0.20181226105442-5d4384ee4fb2",
    )
    go_repository(
        name = "com_github_prometheus_client_golang",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/client_golang",
        sum = "h1:ust4zpdl9r4trLY/gSjlm07PuiBq2ynaXXlptpfy8Uc=",
        version = "v1.23.0",
    )
    go_repository(
        name = "com_github_prometheus_client_model",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/client_model",
        sum = "h1:oBsgwpGs7iVziMvrGhE53c/GrLUsZdHnqNwqPLxwZyk=",
        version = "v0.6.2",
    )
    go_repository(
        name = "com_github_prometheus_common",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/common",
        sum = "h1:QDwzd+G1twt//Kwj/Ww6E9FQq1iVMmODnILtW1t2VzE=",
        version = "v0.65.0",
    )
    go_repository(
        name = "com_github_prometheus_procfs",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/procfs",
        sum = "h1:FuLQ+05u4ZI+SS/w9+BWEM2TXiHKsUQ9TADiRH7DuK0=",
        version = "v0.17.0",
    )
    go_repository(
        name = "com_github_rogpeppe_go_internal",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rogpeppe/go-internal",
        sum = "h1:UQB4HGPB6osV0SQTLymcB4TgvyWu6ZyliaW0tI/otEQ=",
        version = "v1.14.1",
    )
    go_repository(
        name = "com_github_russross_blackfriday_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/russross/blackfriday/v2",
        sum = "h1:JIOH55/0cWyOuilr9/qlrm0BSXldqnqwMsf35Ld67mk=",
        version = "v2.1.0",
    )
    go_repository(
        name = "com_github_ryszard_goskiplist",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ryszard/goskiplist",
        sum = "h1:GHRpF1pTW19a8tTFrMLUcfWwyC0pnifVo2ClaLq+hP8=",
        version = "v0.0.0-20150312221310-2dfbae5fcf46",
    )
    go_repository(
        name = "com_github_santhosh_tekuri_jsonschema_v6",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/santhosh-tekuri/jsonschema/v6",
        sum = "h1:1EYB5IzjZawrrnELUi78f9fPu57HuXjmddZPjrls/28=",
        version = "v6.0.3",
    )

    go_repository(
        name = "com_github_segmentio_kafka_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/segmentio/kafka-go",
        sum = "h1:JgDPPG75tC1rWIS2Me6MwcvXJ6f49UQ4HjAOef71Hno=",
        version = "v0.4.51",
    )
    go_repository(
        name = "com_github_sony_gobreaker",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sony/gobreaker",
        sum = "h1:feX5fGGXSl3dYd4aHZItw+FpHLvvoaqkawKjVNiFMNQ=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_spf13_afero",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/afero",
        sum = "h1:qgMbHoJbPbw579P+1zVY+6n4nIFuIchaIjzZ/I/Yq8M=",
        version = "v1.2.1",
    )

    go_repository(
        name = "com_github_spf13_cobra",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/cobra",
        sum = "h1:DMTTonx5m65Ic0GOoRY2c16WCbHxOOw6xxezuLaBpcU=",
        version = "v1.10.2",
    )
    go_repository(
        name = "com_github_spf13_pflag",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/pflag",
        sum = "h1:4EBh2KAYBwaONj6b2Ye1GiHfwjqyROoF4RwYO+vPwFk=",
        version = "v1.0.10",
    )
    go_repository(
        name = "com_github_spiffe_go_spiffe_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spiffe/go-spiffe/v2",
        sum = "h1:eXZMLsu+3MLEPJyGJkolqtVrteZfQdUpOWj6LTiDl/E=",
        version = "v2.8.1",
    )
    go_repository(
        name = "com_github_stretchr_objx",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/stretchr/objx",
        sum = "h1:jmXUvGomnU1o3W/V5h2VEradbpJDwGrzugQQvL0POH4=",
        version = "v0.5.3",
    )
    go_repository(
        name = "com_github_stretchr_testify",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/stretchr/testify",
        sum = "h1:EuwCh5fleGS7H32xRwO3wRGT7DxrDhLAT6FF8MpWDWE=",
        version = "v1.12.1",
    )
    go_repository(
        name = "com_github_threedotslabs_watermill",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ThreeDotsLabs/watermill",
        sum = "h1:t5xMivyf9tpmU3iozPqyrCZXHvoV1XQDfihas4sV0fY=",
        version = "v1.5.1",
    )
    go_repository(
        name = "com_github_twmb_franz_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/twmb/franz-go",
        sum = "h1:RHe35s34pKefMLyL+ZYJ6mQVtfFZz4zHDHVkTyACur0=",
        version = "v1.22.3",
    )
    go_repository(
        name = "com_github_twmb_franz_go_pkg_kadm",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/twmb/franz-go/pkg/kadm",
        sum = "h1:WRf/LZmDdcDXwX7WMbtDU++v+b3NzYh2bCGoPMmzirw=",
        version = "v1.18.0",
    )
    go_repository(
        name = "com_github_twmb_franz_go_pkg_kfake",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/twmb/franz-go/pkg/kfake",
        sum = "h1:+VhoCwJ6sXP2wjfeoVlPkj68NQ4rzdcqH6pXlr+FY5E=",
        version = "v0.0.0-20260918054303-01f206a7e32c",
    )
    go_repository(
        name = "com_github_twmb_franz_go_pkg_kmsg",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/twmb/franz-go/pkg/kmsg",
        sum = "h1:3sj7ekbH33t73nsBcHS0wtp/PyMIViHLNItZrE8V9zM=",
        version = "v1.15.1",
    )
    go_repository(
        name = "com_github_xdg_go_pbkdf2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xdg-go/pbkdf2",
        sum = "h1:Su7DPu48wXMwC3bs7MCNG+z4FhcyEuz5dlvchbq0B0c=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_xdg_go_scram",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xdg-go/scram",
        sum = "h1:FHX5I5B4i4hKRVRBCFRxq1iQRej7WO3hhBuJf+UUySY=",
        version = "v1.1.2",
    )
    go_repository(
        name = "com_github_xdg_go_stringprep",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xdg-go/stringprep",
        sum = "h1:XLI/Ng3O1Atzq0oBs3TWm+5ZVgkq2aqdlvP9JtoZ6c8=",
        version = "v1.0.4",
    )
    go_repository(
        name = "com_github_xsam_otelsql",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/XSAM/otelsql",
        sum = "h1:ZIhXqRoMhILXQwBQoq/Dl6Taap/KEFQXZrWjYV1L8X8=",
        version = "v0.43.0",
    )
    go_repository(
        name = "com_github_yuin_goldmark",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/yuin/goldmark",
        sum = "h1:fVcFKWvrslecOb/tg+Cc05dkeYx540o0FuFt3nUVDoE=",
        version = "v1.4.13",
    )

    go_repository(
        name = "com_google_cloud_go",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go",
        sum = "h1:2NAUJwPR47q+E35uaJeYoNhuNEM9kM8SjgRgdeOJUSE=",
        version = "v0.123.0",
    )
    go_repository(
        name = "com_google_cloud_go_auth",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/auth",
        sum = "h1:pxSCpfiji41hpzpPdMCftEUCezpgpqmmDdYiAjCKXxo=",
        version = "v0.23.2",
    )
    go_repository(
        name = "com_google_cloud_go_auth_oauth2adapt",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/auth/oauth2adapt",
        sum = "h1:keo8NaayQZ6wimpNSmW5OPc283g65QNIiLpZnkHRbnc=",
        version = "v0.2.8",
    )
    go_repository(
        name = "com_google_cloud_go_compute_metadata",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/compute/metadata",
        sum = "h1:pDUj4QMoPejqq20dK0Pg2N4yG9zIkYGdBtwLoEkH9Zs=",
        version = "v0.9.0",
    )
    go_repository(
        name = "com_google_cloud_go_firestore",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/firestore",
        sum = "h1:yY3rQKyQXNhnhETdseNayF6W1p4x0bdg9ZYS4hKJfOw=",
        version = "v1.25.0",
    )
    go_repository(
        name = "com_google_cloud_go_iam",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/iam",
        sum = "h1:ufT3FPT5rFFXu6UtLkNoxaOaV5EuA1dsSkmemCSTo6U=",
        version = "v1.13.0",
    )
    go_repository(
        name = "com_google_cloud_go_kms",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/kms",
        sum = "h1:pG0X78m212b2pv9N4fdMoUO69LuZGQ9kSvn8sHBOFAo=",
        version = "v1.33.0",
    )
    go_repository(
        name = "com_google_cloud_go_longrunning",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/longrunning",
        sum = "h1:WjYH3YHBGCxGJP9M4dWGHBfXr/cFIjMkNgWcJj7/iMM=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_google_cloud_go_monitoring",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/monitoring",
        sum = "h1:r/d+JUbyKmJ8b07iznuKfzVzrIXTWxHQ3lBRm3x2LlY=",
        version = "v1.30.0",
    )
    go_repository(
        name = "com_google_cloud_go_pubsub",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/pubsub",
        sum = "h1:R3G1wCOxBO7jRpL8x2pdZMv1GAJDF6ax/m2zPOtvTNE=",
        version = "v1.51.1",
    )
    go_repository(
        name = "com_google_cloud_go_pubsub_v2",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/pubsub/v2",
        sum = "h1:MFrBTZZa6PDWZzCi4NJRsHKMm2w0a4oAaYNqwjgbQTE=",
        version = "v2.7.0",
    )
    go_repository(
        name = "com_google_cloud_go_secretmanager",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/secretmanager",
        sum = "h1:e56QQaKWRyzBdUz40AeZaio/ZHAl268cFx3QFAAw9CY=",
        version = "v1.21.0",
    )
    go_repository(
        name = "com_google_cloud_go_storage",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/storage",
        sum = "h1:8xD3NvKuHE4c+b/kmSIVBdTc0BiOjplx+KecKGR9fr8=",
        version = "v1.67.0",
    )
    go_repository(
        name = "dev_cel_expr",
        build_file_proto_mode = "disable_global",
        importpath = "cel.dev/expr",
        sum = "h1:A2jO8jwOugrrovveCWfj0KEZOfqiLgAcwjpHPhzIGw0=",
        version = "v0.25.3",
    )
    go_repository(
        name = "dev_gocloud",
        build_file_proto_mode = "disable_global",
        importpath = "gocloud.dev",
        sum = "h1:qN4/0vtutn97f1X5ziisf3WXuaFL9AR0FIRnyJRYzgA=",
        version = "v0.47.0",
    )
    go_repository(
        name = "in_gopkg_check_v1",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/check.v1",
        sum = "h1:Hei/4ADfdWqJk1ZMxUNpqntNwaWcugrBjAiHlqqRiVk=",
        version = "v1.0.0-20201130134442-10cb98267c6c",
    )
    go_repository(
        name = "in_gopkg_mgo_v2",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/mgo.v2",
        sum = "h1:xcEWjVhvbDy+nHP67nPDDpbYrY+ILlfndk4bRioVHaU=",
        version = "v2.0.0-20180705113604-9856a29383ce",
    )
    go_repository(
        name = "in_gopkg_yaml_v2",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/yaml.v2",
        sum = "h1:obN1ZagJSUGI0Ek/LBmuj4SNLPfIny3KsKFopxRdj10=",
        version = "v2.2.8",
    )

    go_repository(
        name = "in_gopkg_yaml_v3",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/yaml.v3",
        sum = "h1:fxVm/GzAzEWqLHuvctI91KS9hhNmmWOoWu0XTYJS7CA=",
        version = "v3.0.1",
    )
    go_repository(
        name = "in_yaml_go_yaml_v3",
        build_file_proto_mode = "disable_global",
        importpath = "go.yaml.in/yaml/v3",
        sum = "h1:N6y/pJk8buWs9NY5ERU2HSMfm+IuD/OtfdAnq6kESPw=",
        version = "v3.0.5",
    )
    go_repository(
        name = "io_etcd_go_bbolt",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/bbolt",
        sum = "h1:S7GAl7Fxv12yohbwFfIbQCGDWbQbtDGPET4P/bD4lxU=",
        version = "v1.5.0",
    )
    go_repository(
        name = "io_etcd_go_gofail",
        build_file_proto_mode = "disable_global",
        importpath = "go.etcd.io/gofail",
        sum = "h1:p19drv16FKK345a09a1iubchlw/vmRuksmRzgBIGjcA=",
        version = "v0.2.0",
    )
    go_repository(
        name = "io_filippo_edwards25519",
        build_file_proto_mode = "disable_global",
        importpath = "filippo.io/edwards25519",
        sum = "h1:crnVqOiS4jqYleHd9vaKZ+HKtHfllngJIiOpNpoJsjo=",
        version = "v1.2.0",
    )
    go_repository(
        name = "io_opencensus_go",
        build_file_proto_mode = "disable_global",
        importpath = "go.opencensus.io",
        sum = "h1:y73uSU6J157QMP2kn2r30vwW1A2W2WFwSCGnAVxeaD0=",
        version = "v0.24.0",
    )
    go_repository(
        name = "io_opentelemetry_go_auto_sdk",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/auto/sdk",
        sum = "h1:jXsnJ4Lmnqd11kwkBV2LgLoFMZKizbCi5fNZ/ipaZ64=",
        version = "v1.2.1",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_detectors_aws_ec2_v2",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/detectors/aws/ec2/v2",
        sum = "h1:dZFLXCPekqBn+0nE9cYTcMub4vnlY2QmbIWXfWnnmos=",
        version = "v2.5.3",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_detectors_gcp",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/detectors/gcp",
        sum = "h1:PI8dGkqDaQkwJ8kOopqMhDTbrnK3UIeG/RCHH4HErbo=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_instrumentation_google_golang_org_grpc_otelgrpc",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc",
        sum = "h1:B2h3uqicet1CT2N5TOFhS+Gq++9i0/CLmaxvhmhtP5s=",
        version = "v0.71.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_instrumentation_net_http_otelhttp",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp",
        sum = "h1:3g7B90UzBltIDKq1/5mrTGxTnOFDV0ICOhLoxiZ8jlg=",
        version = "v0.71.0",
    )
    go_repository(
        name = "io_opentelemetry_go_contrib_propagators_aws",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/propagators/aws",
        sum = "h1:JslT1wq/5vb6lQsbdOqShvIEs7sDlf0IvKxNZdadfjY=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel",
        sum = "h1:FHt5/CDyVxi/8IM1CH7VE/rRgq3kLHa2mSTVMO8AWyc=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlpmetric_otlpmetricgrpc",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc",
        sum = "h1:qkDYCAFiZXLcs1L4aY+tP2wguQ4kURANqHOQMA2et2s=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace",
        sum = "h1:OFnwLJr+pF3iHrlGSzbxyuo6/6HyBlnlN1CWEJmBVcw=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace_otlptracegrpc",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc",
        sum = "h1:w53CDeOA/Kurp7yRsegSr6pbbr759dOvJ+yNmWM6Hxs=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdoutmetric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdoutmetric",
        sum = "h1:PR9eAf7o0dQs3hshZNZpE9aW2dXWX/KdDf6pJilVD3U=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_metric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/metric",
        sum = "h1:yBnkXvgV7AXFILZc5K6IZe/CBFF3OS7BJ8ov6/lj0K8=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_metric_x",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/metric/x",
        sum = "h1:TA/cBT23D3MnxYPwHL7YFOdYGdx0A0v+s7Mzotpd1dU=",
        version = "v0.68.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk",
        sum = "h1:h5CNQQjEbuQXY/JfZtgt3i7HVFV3aHPO2OAwO2eTYPI=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk_metric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk/metric",
        sum = "h1:0piZ26EG4RBfebb2jhDH6ERCYHoVWduc3kLgPCwSnSE=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_trace",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/trace",
        sum = "h1:OULy7ccdJnZtJ0UDYFOIGaCmiWzJ8Vi2G/Rsu60qs1c=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_proto_otlp",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/proto/otlp",
        sum = "h1:5rrYs0Ykyj50sdU/JU0x8etU+LubXWb+gED6TbEdMIk=",
        version = "v1.11.0",
    )
    go_repository(
        name = "org_golang_google_api",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/api",
        sum = "h1:WktxTsnnx0yZNnsR6j0q6hR21RnnK81FHTOPy/ux4OE=",
        version = "v0.297.0",
    )
    go_repository(
        name = "org_golang_google_genproto",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto",
        sum = "h1:6QRNo34FxJcE1LG6XfnmaQ17m6w21oXaKlKoBaF+UqE=",
        version = "v0.0.0-20260904194346-d0f1323225a4",
    )
    go_repository(
        name = "org_golang_google_genproto_googleapis_api",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto/googleapis/api",
        sum = "h1:NCe/UiklGd/9xjT+ROBVhJ1kf6TRQaFedsR+z7u1gvo=",
        version = "v0.0.0-20260904194346-d0f1323225a4",
    )
    go_repository(
        name = "org_golang_google_genproto_googleapis_bytestream",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto/googleapis/bytestream",
        sum = "h1:WB5pUqu0aABRpqIQGXfhN7M3oD3tSyTFrJ7ivXANTK8=",
        version = "v0.0.0-20260819154853-08b0e4226688",
    )
    go_repository(
        name = "org_golang_google_genproto_googleapis_rpc",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/genproto/googleapis/rpc",
        sum = "h1:5t+ZydAFj5kGVLrgCvLmpmCf9ylGRd64hpEronfRaws=",
        version = "v0.0.0-20260904194346-d0f1323225a4",
    )
    go_repository(
        name = "org_golang_google_grpc",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/grpc",
        sum = "h1:BPBCfuVRQ1qvBhKDOq9uvQllMvO59rKsYhXpp7Dd8vw=",
        version = "v1.85.0",
    )
    go_repository(
        name = "org_golang_google_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/protobuf",
        sum = "h1:pJOKDDOyeXErUroCihFAd5LQuwXBSpVnKGrj5o/fwxc=",
        version = "v1.36.12",
    )
    go_repository(
        name = "org_golang_x_crypto",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/crypto",
        sum = "h1:3ZVCjf8Ggz7zneR/EHRVx68Ctf+2pmIMP2UFhh9cC6M=",
        version = "v0.57.0",
    )
    go_repository(
        name = "org_golang_x_mod",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/mod",
        sum = "h1:qJmnOUb4YB+FsEuM3HcWucdZASCPGhsX6uljO6pog0c=",
        version = "v0.41.0",
    )
    go_repository(
        name = "org_golang_x_net",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/net",
        sum = "h1:79p50tfZlm0J9YfoDsSi639qSXNGVwEzOPLCxM2FsYU=",
        version = "v0.60.0",
    )
    go_repository(
        name = "org_golang_x_oauth2",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/oauth2",
        sum = "h1:peZ/1z27fi9hUOFCAZaHyrpWG5lwe0RJEEEeH0ThlIs=",
        version = "v0.36.0",
    )
    go_repository(
        name = "org_golang_x_perf",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/perf",
        sum = "h1:stGRioFgvBd3x8HoGVg9bb41lLTWLjBMFT/dMB7f4mQ=",
        version = "v0.0.0-20250813145418-2f7363a06fe1",
    )
    go_repository(
        name = "org_golang_x_sync",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sync",
        sum = "h1:KameEIfc1IkluZyXWLn39Wd4tURc6GbCiISGiZm2bQk=",
        version = "v0.23.0",
    )
    go_repository(
        name = "org_golang_x_sys",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sys",
        sum = "h1:bbX/i/6MgT9BVLM9RT1thmxL04yeTAhbEz4SyadbXoo=",
        version = "v0.48.0",
    )
    go_repository(
        name = "org_golang_x_telemetry",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/telemetry",
        sum = "h1:ZUSxONxc981v7AW7QUg+I9WwZzSTTJ019ENBYr5pV/Q=",
        version = "v0.0.0-20260811182544-a038080d80e5",
    )

    go_repository(
        name = "org_golang_x_term",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/term",
        sum = "h1:3+OXuTbaKDgwk8jTi3aSLHRlmWqHEUDUtxnbFigO4YE=",
        version = "v0.46.0",
    )
    go_repository(
        name = "org_golang_x_text",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/text",
        sum = "h1:JbOZXgfeCPU9gacVtYliJqOhD+zhrEqK4LfdpmlUZqI=",
        version = "v0.42.0",
    )
    go_repository(
        name = "org_golang_x_time",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/time",
        sum = "h1:bbrp8t3bGUeFOx08pvsMYRTCVSMk89u4tKbNOZbp88U=",
        version = "v0.15.0",
    )
    go_repository(
        name = "org_golang_x_tools",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools",
        sum = "h1:3NI7VXzL9+1WZD52Dx2ttoPwD5DWrFGpl9mFZDlmisI=",
        version = "v0.49.0",
    )
    go_repository(
        name = "org_golang_x_xerrors",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/xerrors",
        sum = "h1:noIWHXmPHxILtqtCOPIhSt0ABwskkZKjD3bXGnZGpNY=",
        version = "v0.0.0-20240903120638-7835f813f4da",
    )
    go_repository(
        name = "org_gonum_v1_gonum",
        build_file_proto_mode = "disable_global",
        importpath = "gonum.org/v1/gonum",
        sum = "h1:VbpOemQlsSMrYmn7T2OUvQ4dqxQXU+ouZFQsZOx50z4=",
        version = "v0.17.0",
    )
    go_repository(
        name = "org_shabbyrobe_go_gocovmerge",
        build_file_proto_mode = "disable_global",
        importpath = "go.shabbyrobe.org/gocovmerge",
        sum = "h1:Ns9kd1Rwzw7t0BR8XMphenji4SmIoNZPn8zhYmaVKP8=",
        version = "v0.0.0-20230507111327-fa4f82cfbf4d",
    )

    go_repository(
        name = "org_uber_go_goleak",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/goleak",
        sum = "h1:2K3zAYmnTNqV73imy9J1T3WC+gmCePx2hEGkimedGto=",
        version = "v1.3.0",
    )
    go_repository(
        name = "org_uber_go_multierr",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/multierr",
        sum = "h1:blXXJkSxSSfBVBlC76pxqeO+LN3aDfLQo+309xJstO0=",
        version = "v1.11.0",
    )
    go_repository(
        name = "org_uber_go_zap",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/zap",
        sum = "h1:IZzaP1Fv73/T/pBMLk4VutPl36uNC+OSUh3JLG3FIjo=",
        version = "v1.28.0",
    )

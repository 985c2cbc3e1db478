load("@bazel_gazelle//:deps.bzl", "go_repository")

def go_dependencies():
    go_repository(
        name = "cc_mvdan_sh_v3",
        build_file_proto_mode = "disable_global",
        importpath = "mvdan.cc/sh/v3",
        sum = "h1:lSTjdP/1xsddtaKfGg7Myu7DnlHItd3/M2tomOcNNBg=",
        version = "v3.7.0",
    )

    go_repository(
        name = "com_github_aclements_go_moremath",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aclements/go-moremath",
        sum = "h1:xlwdaKcTNVW4PtpQb8aKA4Pjy0CdJHEqvFbAnvR5m2g=",
        version = "v0.0.0-20210112150236-f10218a38794",
    )
    go_repository(
        name = "com_github_adamkorcz_go_fuzz_headers_1",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/AdamKorcz/go-fuzz-headers-1",
        sum = "h1:zjqpY4C7H15HjRPEenkS4SAn3Jy2eRRjkjZbGR30TOg=",
        version = "v0.0.0-20230919221257-8b5d3ce2d11d",
    )
    go_repository(
        name = "com_github_apapsch_go_jsonmerge_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/apapsch/go-jsonmerge/v2",
        sum = "h1:axGnT1gRIfimI7gJifB699GoE/oq+F2MU7Dml6nw9rQ=",
        version = "v2.0.0",
    )

    go_repository(
        name = "com_github_asaskevich_govalidator",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/asaskevich/govalidator",
        sum = "h1:DklsrG3dyBCFEj5IhUbnKptjxatkF07cF2ak3yi77so=",
        version = "v0.0.0-20230301143203-a9d515a09cc2",
    )
    go_repository(
        name = "com_github_avast_retry_go_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/avast/retry-go/v4",
        sum = "h1:yjDs35SlGvKwRNSykujfjdMxMhMQQM0TnIjJaHB+Zio=",
        version = "v4.7.0",
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
        sum = "h1:WKuaxf++XKWlHWu9ECbMlha8WOEGm0OUEZqm4K/Gcfk=",
        version = "v1.8.4",
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
        name = "com_github_aymanbagabas_go_osc52_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/aymanbagabas/go-osc52/v2",
        sum = "h1:HwpRHbFMcZLEVr42D4p7XBqjyuxQH5SMiErDT4WkJ2k=",
        version = "v2.0.1",
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
        name = "com_github_bitfield_script",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bitfield/script",
        sum = "h1:D4ZWu72qWL/at0rXFF+9xgs17VwyrpT6PkkBTdEz9xU=",
        version = "v0.24.1",
    )
    go_repository(
        name = "com_github_blang_semver_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/blang/semver/v4",
        sum = "h1:1PFHFE6yCCTv8C1TeyNNarDzntLi7wMI5i/pzqYIsAM=",
        version = "v4.0.0",
    )

    go_repository(
        name = "com_github_brunoscheufler_aws_ecs_metadata_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/brunoscheufler/aws-ecs-metadata-go",
        sum = "h1:C0dfBzAdNMqxokqWUysk2KTJSMmqvh9cNW1opdy5+0Q=",
        version = "v0.0.0-20221221133751-67e37ae746cd",
    )
    go_repository(
        name = "com_github_bufbuild_protocompile",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/bufbuild/protocompile",
        sum = "h1:iA73zAf/fyljNjQKwYzUHD6AD4R8KMasmwa/FBatYVw=",
        version = "v0.14.1",
    )

    go_repository(
        name = "com_github_cavaliergopher_cpio",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cavaliergopher/cpio",
        sum = "h1:KQFSeKmZhv0cr+kawA3a0xTQCU4QxXF1vhU7P7av2KM=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_cenkalti_backoff_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cenkalti/backoff/v4",
        sum = "h1:MyRJ/UdXutAwSAT+s3wNd7MfTIcy71VQueUuFK343L8=",
        version = "v4.3.0",
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
        name = "com_github_charmbracelet_bubbletea",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/bubbletea",
        sum = "h1:otUDHWMMzQSB0Pkc87rm691KZ3SWa4KUlvF9nRvCICw=",
        version = "v1.3.10",
    )
    go_repository(
        name = "com_github_charmbracelet_colorprofile",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/colorprofile",
        sum = "h1:4pZI35227imm7yK2bGPcfpFEmuY1gc2YSTShr4iJBfs=",
        version = "v0.2.3-0.20250311203215-f60798e515dc",
    )
    go_repository(
        name = "com_github_charmbracelet_lipgloss",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/lipgloss",
        sum = "h1:vYXsiLHVkK7fp74RkV7b2kq9+zDLoEU4MZoFqR/noCY=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_charmbracelet_x_ansi",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/x/ansi",
        sum = "h1:ith2ArZS0CJG30cIUfID1LXN7ZFXRCww6RUvAPA+Pzw=",
        version = "v0.10.2",
    )
    go_repository(
        name = "com_github_charmbracelet_x_cellbuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/x/cellbuf",
        sum = "h1:vy0GVL4jeHEwG5YOXDmi86oYw2yuYUGqz6a8sLwg0X8=",
        version = "v0.0.13-0.20250311204145-2c3ea96c31dd",
    )
    go_repository(
        name = "com_github_charmbracelet_x_term",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/charmbracelet/x/term",
        sum = "h1:AQeHeLZ1OqSXhrAWpYUtZyX1T3zVxfpZuEQMIQaGIAQ=",
        version = "v0.2.1",
    )
    go_repository(
        name = "com_github_cloudflare_circl",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cloudflare/circl",
        sum = "h1:9GPOhQGF9MCYUeXyMYlqTR6a5gTrgR/fBLXvUgtVcg8=",
        version = "v1.6.3",
    )

    go_repository(
        name = "com_github_cncf_xds_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cncf/xds/go",
        sum = "h1:aBangftG7EVZoUb69Os8IaYg++6uMOdKK83QtkkvJik=",
        version = "v0.0.0-20260202195803-dba9d589def2",
    )
    go_repository(
        name = "com_github_codahale_rfc6979",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/codahale/rfc6979",
        sum = "h1:EDmT6Q9Zs+SbUoc7Ik9EfrFqcylYqgPZ9ANSbTAntnE=",
        version = "v0.0.0-20141003034818-6a90f24967eb",
    )
    go_repository(
        name = "com_github_common_nighthawk_go_figure",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/common-nighthawk/go-figure",
        sum = "h1:J5BL2kskAlV9ckgEsNQXscjIaLiOYiZ75d4e94E6dcQ=",
        version = "v0.0.0-20210622060536-734e95fb86be",
    )
    go_repository(
        name = "com_github_containerd_errdefs",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/containerd/errdefs",
        sum = "h1:tg5yIfIlQIrxYtu9ajqY42W3lpS19XqdxRQeEwYG8PI=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_containerd_errdefs_pkg",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/containerd/errdefs/pkg",
        sum = "h1:9IKJ06FvyNlexW690DXuQNx2KA2cUJXx151Xdx3ZPPE=",
        version = "v0.3.0",
    )
    go_repository(
        name = "com_github_coreos_go_oidc_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/coreos/go-oidc/v3",
        sum = "h1:EtE0WIBHk03N+DqGkY4+UONzzZHk7amKt6IyNd7OsZE=",
        version = "v3.20.0",
    )

    go_repository(
        name = "com_github_cpuguy83_go_md2man_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cpuguy83/go-md2man/v2",
        sum = "h1:zbFlGlXEAKlwXpmvle3d8Oe3YnkKIK4xSRTd3sHPnBo=",
        version = "v2.0.7",
    )
    go_repository(
        name = "com_github_cyberphone_json_canonicalization",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/cyberphone/json-canonicalization",
        sum = "h1:vU+EP9ZuFUCYE0NYLwTSob+3LNEJATzNfP/DC7SWGWI=",
        version = "v0.0.0-20220623050100-57a0ce2678a7",
    )
    go_repository(
        name = "com_github_danieljoos_wincred",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/danieljoos/wincred",
        sum = "h1:774zMFJrqaeYCK2W57BgAem/MLi6mtSE47MB6BOJ0i0=",
        version = "v1.2.2",
    )
    go_repository(
        name = "com_github_data_dog_go_sqlmock",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/DATA-DOG/go-sqlmock",
        sum = "h1:OcvFkGmslmlZibjAjaHm3L//6LiuBgolP7OputlJIzU=",
        version = "v1.5.2",
    )
    go_repository(
        name = "com_github_datadog_zstd",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/DataDog/zstd",
        sum = "h1:oWf5W7GtOLgp6bciQYDmhHHjdhYkALu6S/5Ni9ZgSvQ=",
        version = "v1.5.5",
    )

    go_repository(
        name = "com_github_davecgh_go_spew",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/davecgh/go-spew",
        sum = "h1:U9qPSI2PIWSS1VwoXQT9A3Wy9MM3WgvqSxFWenqJduM=",
        version = "v1.1.2-0.20180830191138-d8f796af33cc",
    )
    go_repository(
        name = "com_github_dgraph_io_badger_v4",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dgraph-io/badger/v4",
        sum = "h1:DocZXZkg5JJHJPtUErA0ibyHxOVUDVoXLSCV6t8NC8w=",
        version = "v4.9.1",
    )
    go_repository(
        name = "com_github_dgraph_io_ristretto_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dgraph-io/ristretto/v2",
        sum = "h1:bkY3XzJcXoMuELV8F+vS8kzNgicwQFAaGINAEJdWGOM=",
        version = "v2.2.0",
    )
    go_repository(
        name = "com_github_distribution_reference",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/distribution/reference",
        sum = "h1:0IXCQ5g4/QMHHkarYzh5l+u8T3t73zM5QvfrDyIgxBk=",
        version = "v0.6.0",
    )

    go_repository(
        name = "com_github_dlclark_regexp2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dlclark/regexp2",
        sum = "h1:G/nrcoOa7ZXlpoa/91N3X7mM3r8eIlMBBJZvsz/mxKI=",
        version = "v1.11.0",
    )
    go_repository(
        name = "com_github_docker_cli",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/cli",
        sum = "h1:nbEFfz774vBwQ5KRYv7c/AghjReqnGISvrRhzjV0evs=",
        version = "v29.5.3+incompatible",
    )
    go_repository(
        name = "com_github_docker_docker_credential_helpers",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/docker-credential-helpers",
        sum = "h1:gAm/VtF9wgqJMoxzT3Gj5p4AqIjCBS4wrsOh9yRqcz8=",
        version = "v0.9.3",
    )
    go_repository(
        name = "com_github_docker_go_connections",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/go-connections",
        sum = "h1:6SsRfJddP22WMrCkj19x9WKjEDTB+ahsdiGYf0mN39c=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_docker_go_units",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/docker/go-units",
        sum = "h1:69rxXcBk27SvSaaxTtLh/8llcHD8vYHT7WSdRZ/jvr4=",
        version = "v0.5.0",
    )
    go_repository(
        name = "com_github_dustin_go_humanize",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/dustin/go-humanize",
        sum = "h1:GzkhY7T5VNhEkwH0PVJgjz+fX1rhBrR7pRT3mDkpeCY=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_emicklei_go_restful_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/emicklei/go-restful/v3",
        sum = "h1:C4Bl2xDndpU6nJ4bc1jXd+uTmYPVUwkD6bFY/oTyCes=",
        version = "v3.13.0",
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
        name = "com_github_erikgeiser_coninput",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/erikgeiser/coninput",
        sum = "h1:Y/CXytFA4m6baUTXGLOoWe4PQhGxaX0KpnayAqC48p4=",
        version = "v0.0.0-20211004153227-1c3628e74d0f",
    )
    go_repository(
        name = "com_github_fatih_color",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fatih/color",
        sum = "h1:zmkK9Ngbjj+K0yRhTVONQh1p/HknKYSlNT+vZCzyokM=",
        version = "v1.16.0",
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
        name = "com_github_fxamacker_cbor_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/fxamacker/cbor/v2",
        sum = "h1:2rWm8B193Ll4VdjsJY28jxs70IdDsHRWgQYAI80+rMQ=",
        version = "v2.9.1",
    )
    go_repository(
        name = "com_github_gdamore_encoding",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gdamore/encoding",
        sum = "h1:YzKZckdBL6jVt2Gc+5p82qhrGiqMdG/eNs6Wy0u3Uhw=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_gdamore_tcell_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/gdamore/tcell/v2",
        sum = "h1:Mys/Kl5wfC/GcC5Cx4C2BIQH9dbnhnkPgS9/wF3RlfU=",
        version = "v2.13.8",
    )

    go_repository(
        name = "com_github_go_chi_chi_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-chi/chi/v5",
        sum = "h1:3j4HZLGZQ3JpMCrPJF/Jl3mYJfWLKBfNJ6quurUGCf8=",
        version = "v5.3.1",
    )
    go_repository(
        name = "com_github_go_errors_errors",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-errors/errors",
        sum = "h1:ZwEMSLRCapFLflTpT7NKaAc7ukJ8ZPEjzlxt8rPN8bk=",
        version = "v1.5.1",
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
        name = "com_github_go_openapi_analysis",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/analysis",
        sum = "h1:1xECln1iMMmQnTjgcknC1vi1hA4KISt6IHpSwnqcuwI=",
        version = "v0.26.0",
    )
    go_repository(
        name = "com_github_go_openapi_errors",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/errors",
        sum = "h1:oP7sW7TWc3wFFjrzzj0nI83H2qMBkNjNfSd+XRejk/I=",
        version = "v0.22.8",
    )
    go_repository(
        name = "com_github_go_openapi_jsonpointer",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/jsonpointer",
        sum = "h1:kR9tHqY0CtZaOPVFm622dPVNhrvYpwr4uCxgL3h1H8s=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_go_openapi_jsonreference",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/jsonreference",
        sum = "h1:jlmTr6torcd1YgDQvSfNmRtKzYDO4FGBkrAdlAVWnpY=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_go_openapi_loads",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/loads",
        sum = "h1:toKQdIDLxlqfKLLGUUmUsiTd5/X0Chzvde9EGYQP/Ac=",
        version = "v0.25.1",
    )
    go_repository(
        name = "com_github_go_openapi_runtime",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/runtime",
        sum = "h1:Dd3Oj2ig+WH8ckK95l0Wn2V8a4bH/UqWPRZVT0vc8yU=",
        version = "v0.33.0",
    )
    go_repository(
        name = "com_github_go_openapi_runtime_server_middleware",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/runtime/server-middleware",
        sum = "h1:8rPoJ/xv7JL8BsovaqboKETlpWBArVh8n+0L/GyePog=",
        version = "v0.30.0",
    )
    go_repository(
        name = "com_github_go_openapi_spec",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/spec",
        sum = "h1:/vKIFDcGKp0ktZWGbym/tJEWbk6/XOEmAVU0kqKMH+w=",
        version = "v0.22.9",
    )
    go_repository(
        name = "com_github_go_openapi_strfmt",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/strfmt",
        sum = "h1:kbcTeaD9TXuXD0hhMXzuYa1sdTo6+dWGvwjW93E80IM=",
        version = "v0.27.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag",
        sum = "h1:xkgbOSKj6DZziNpyqRRAOt3GJGtgjgsd2RoyT30VWuw=",
        version = "v0.28.0",
    )

    go_repository(
        name = "com_github_go_openapi_swag_cmdutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/cmdutils",
        sum = "h1:7TOeNtkYru1SG8Y34tDh9WBbLsMqGnptuxWiHREPZ4Q=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_conv",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/conv",
        sum = "h1:GtqqbyFe7vR5Y7ehxG9W6/OvrSFdf1OLeTGp40TqxH8=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_fileutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/fileutils",
        sum = "h1:Z04XWQD7R8Eq+7GnOrjovBxPPmZzsS4gt2H2GPGIViU=",
        version = "v0.28.0",
    )

    go_repository(
        name = "com_github_go_openapi_swag_jsonutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/jsonutils",
        sum = "h1:YIch6FwO7RXzeAnbO8Tu7dWBZeUEH+4nA0HXltVTnv4=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_jsonutils_fixtures_test",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/jsonutils/fixtures_test",
        sum = "h1:qV+VVUAx5Oro8WjVWpZeql7YReTKhT4smR4zhcOQZr0=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_loading",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/loading",
        sum = "h1:td8QZdZC9MIYGGSnSPKShKiK22I2tU5UQvuUhIBPRLU=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_mangling",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/mangling",
        sum = "h1:pH8eyeNO9SLYsTMWJrurnNfKmDa28XrlA+HePVD53VM=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_netutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/netutils",
        sum = "h1:YXN6TALEi2pzts8/8GNm6T61HTAZsieukGZidap989k=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_pools",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/pools",
        sum = "h1:HPMZWSAfce3rdVTFcjFiCIBtDg9h4x2QlRrHipwhxeU=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_stringutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/stringutils",
        sum = "h1:ixsc9iYgDPubHL/8nSkbnryEHpD2VRlBMLKpQyPXcDU=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_typeutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/typeutils",
        sum = "h1:nRBKSBXjDgf01VDPB3fWeD9nQuhCOVeIYAkUx2tbkyY=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_swag_yamlutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/swag/yamlutils",
        sum = "h1:TV3JXH6DS46KUroDtMLAYHGkdWf5VDq3wVWFirmzROY=",
        version = "v0.28.0",
    )
    go_repository(
        name = "com_github_go_openapi_testify_enable_yaml_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/testify/enable/yaml/v2",
        sum = "h1:gGHwAJ0R/5jU8BEGDbfRNR3hL68dAVi84WuOApp29B0=",
        version = "v2.6.0",
    )
    go_repository(
        name = "com_github_go_openapi_testify_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/testify/v2",
        sum = "h1:5PKH2HE7YJ/LuRPQGvSxBRlFXNQhSetBLlGAgUEu3ug=",
        version = "v2.6.0",
    )
    go_repository(
        name = "com_github_go_openapi_validate",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-openapi/validate",
        sum = "h1:OkfZgLvLDnGP2hrRGD+42WBiPWWkoHomTJ+IVI+KaDc=",
        version = "v0.26.3",
    )
    go_repository(
        name = "com_github_go_redis_redismock_v9",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-redis/redismock/v9",
        sum = "h1:ZrMYQeKPECZPjOj5u9eyOjg8Nnb0BS9lkVIZ6IpsKLw=",
        version = "v9.2.0",
    )
    go_repository(
        name = "com_github_go_rod_rod",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-rod/rod",
        sum = "h1:A5t2Ky2A+5eD/ZJQr1EfsQSe5rms5Xof/qj296e+ZqA=",
        version = "v0.116.2",
    )

    go_repository(
        name = "com_github_go_sql_driver_mysql",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-sql-driver/mysql",
        sum = "h1:arlSnNLq6a5yxGxV7qg9lF4j0C+KwD6NbQyKr9QL6ME=",
        version = "v1.10.1",
    )
    go_repository(
        name = "com_github_go_viper_mapstructure_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/go-viper/mapstructure/v2",
        sum = "h1:vM5IJoUAy3d7zRSVtIwQgBj7BiWtMPfmPEgAXnvj1Ro=",
        version = "v2.5.0",
    )
    go_repository(
        name = "com_github_godbus_dbus_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/godbus/dbus/v5",
        sum = "h1:4KLkAxT3aOY8Li4FRJe/KvhoNFFxo0m6fNuFUO8QJUk=",
        version = "v5.1.0",
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
        name = "com_github_golang_groupcache",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/groupcache",
        sum = "h1:f+oWsMOmNPc8JmEHVZIycC7hBoQxHH9pNKQORJNozsQ=",
        version = "v0.0.0-20241129210726-2c02b8208cf8",
    )

    go_repository(
        name = "com_github_golang_jwt_jwt_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang-jwt/jwt/v5",
        sum = "h1:kYf81DTWFe7t+1VvL7eS+jKFVWaUnK9cB1qbwn63YCY=",
        version = "v5.3.1",
    )
    go_repository(
        name = "com_github_golang_mock",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/mock",
        sum = "h1:YojYx61/OLFsiv6Rw1Z96LpldJIy31o+UHmwAUMJ6/U=",
        version = "v1.7.0-rc.1",
    )

    go_repository(
        name = "com_github_golang_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/protobuf",
        sum = "h1:i7eJL8qZTpSEXOPTxNKhASYpMn+8e5Q6AdndVa1dWek=",
        version = "v1.5.4",
    )
    go_repository(
        name = "com_github_golang_snappy",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/snappy",
        sum = "h1:Oy607GVXHs7RtbggtPBnr2RmDArIsAefDwvrdWvRhGs=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_google_flatbuffers",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/flatbuffers",
        sum = "h1:F3vclr7C3HpB1k9mxCGRMXq6FdUalZ6H/pNX4FP1v0Q=",
        version = "v25.2.10+incompatible",
    )
    go_repository(
        name = "com_github_google_gnostic_models",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/gnostic-models",
        sum = "h1:SisTfuFKJSKM5CPZkffwi6coztzzeYUhc3v4yxLWH8c=",
        version = "v0.7.1",
    )

    go_repository(
        name = "com_github_google_go_cmp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-cmp",
        sum = "h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=",
        version = "v0.7.0",
    )
    go_repository(
        name = "com_github_google_go_containerregistry",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/go-containerregistry",
        sum = "h1:/vPFuVXDjtFREsVArW+0h1CIl5urnOhzei4X2DMW9IU=",
        version = "v0.21.7",
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
        name = "com_github_google_gofuzz",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/gofuzz",
        sum = "h1:A8PeW59pxE9IoFRqBp37U+mSNaQoZ46F1f0f863XSXw=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_google_jsonschema_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/jsonschema-go",
        sum = "h1:/DBOLZTfDow7pe2GmaJNhltueGTtDKICi8V8p+DQPd0=",
        version = "v0.4.3",
    )

    go_repository(
        name = "com_github_google_martian_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/martian/v3",
        sum = "h1:DIhPTQrbPkgs2yJYdXU/eNACCG5DVQjySNRNlflZ9Fc=",
        version = "v3.3.3",
    )
    go_repository(
        name = "com_github_google_pprof",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/pprof",
        sum = "h1:EwtI+Al+DeppwYX2oXJCETMO23COyaKGP6fHVpkpWpg=",
        version = "v0.0.0-20260402051712-545e8a4df936",
    )
    go_repository(
        name = "com_github_google_rpmpack",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/rpmpack",
        sum = "h1:YdWh1IpzOjBz60Wvdw0TU0A5NWP+JTVHA5poDqwMO2o=",
        version = "v0.7.1",
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
        name = "com_github_google_trillian",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/google/trillian",
        sum = "h1:hziW+vo4czis48tzx2GK5xRBl/ZxBA9B0/UR5avXOro=",
        version = "v1.7.3",
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
        name = "com_github_googlecloudplatform_grpc_gcp_go_grpcgcp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/grpc-gcp-go/grpcgcp",
        sum = "h1:2afWGsMzkIcN8Qm4mgPJKZWyroE5QBszMiDMYEBrnfw=",
        version = "v1.5.3",
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
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_exporter_trace",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/exporter/trace",
        sum = "h1:xQMhkBXPOKe/GzC6TctwlK2aNF+9k5VwFgdE83rBK2Y=",
        version = "v1.31.0",
    )

    go_repository(
        name = "com_github_googlecloudplatform_opentelemetry_operations_go_internal_resourcemapping",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/GoogleCloudPlatform/opentelemetry-operations-go/internal/resourcemapping",
        sum = "h1:KhpL26/GviYITHMCEGGqT/l50siFaBCBBKrjv6Z0G/k=",
        version = "v0.61.0",
    )
    go_repository(
        name = "com_github_grpc_ecosystem_go_grpc_middleware_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/go-grpc-middleware/v2",
        sum = "h1:B+8ClL/kCQkRiU82d9xajRPKYMrB7E0MbtzWVi1K4ns=",
        version = "v2.3.3",
    )

    go_repository(
        name = "com_github_grpc_ecosystem_grpc_gateway_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/grpc-ecosystem/grpc-gateway/v2",
        sum = "h1:/Tnpcb2E0Pz/tN9s3bfEY2Q8ePCEX9iuS+cneUwncnw=",
        version = "v2.30.0",
    )
    go_repository(
        name = "com_github_hashicorp_errwrap",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/errwrap",
        sum = "h1:OxrOeh75EUXMY8TBjag2fzXGZ40LB6IKw45YeGUDY2I=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_hashicorp_go_cleanhttp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-cleanhttp",
        sum = "h1:035FKYIWjmULyFRBKPs8TBQoi0x6d9G4xc9neXJWAZQ=",
        version = "v0.5.2",
    )
    go_repository(
        name = "com_github_hashicorp_go_hclog",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-hclog",
        sum = "h1:Qr2kF+eVWjTiYmU7Y31tYlP1h0q/X3Nl3tPGdaB11/k=",
        version = "v1.6.3",
    )
    go_repository(
        name = "com_github_hashicorp_go_multierror",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-multierror",
        sum = "h1:H5DkEtf6CXdFp0N0Em5UCwQpXMWke8IA0+lD48awMYo=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_hashicorp_go_retryablehttp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-retryablehttp",
        sum = "h1:ylXZWnqa7Lhqpk0L1P1LzDtGcCR0rPVUrx/c8Unxc48=",
        version = "v0.7.8",
    )
    go_repository(
        name = "com_github_hashicorp_go_rootcerts",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-rootcerts",
        sum = "h1:jzhAVGtqPKbwpyCPELlgNWhE1znq+qwJtW5Oi2viEzc=",
        version = "v1.0.2",
    )
    go_repository(
        name = "com_github_hashicorp_go_secure_stdlib_parseutil",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-secure-stdlib/parseutil",
        sum = "h1:U+kC2dOhMFQctRfhK0gRctKAPTloZdMU5ZJxaesJ/VM=",
        version = "v0.2.0",
    )
    go_repository(
        name = "com_github_hashicorp_go_secure_stdlib_strutil",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-secure-stdlib/strutil",
        sum = "h1:kes8mmyCpxJsI7FTwtzRqEy9CdjCtrXrXGuOpxEA7Ts=",
        version = "v0.1.2",
    )
    go_repository(
        name = "com_github_hashicorp_go_sockaddr",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/go-sockaddr",
        sum = "h1:G+pTkSO01HpR5qCxg7lxfsFEZaG+C0VssTy/9dbT+Fw=",
        version = "v1.0.7",
    )
    go_repository(
        name = "com_github_hashicorp_golang_lru_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/golang-lru/v2",
        sum = "h1:a+bsQ5rvGLjzHuww6tVxozPZFVghXaHOwFs4luLUK2k=",
        version = "v2.0.7",
    )
    go_repository(
        name = "com_github_hashicorp_hcl",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/hcl",
        sum = "h1:ag5OxFVy3QYTFTJODRzTKVZ6xvdfLLCA1cy/Y6xGI0I=",
        version = "v1.0.1-vault-7",
    )
    go_repository(
        name = "com_github_hashicorp_vault_api",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/hashicorp/vault/api",
        sum = "h1:gXgluBsSECfRWTSW9niY2jwg2e9mMJc4WoHNv4g3h6A=",
        version = "v1.23.0",
    )
    go_repository(
        name = "com_github_howeyc_gopass",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/howeyc/gopass",
        sum = "h1:A9HsByNhogrvm9cWb28sjiS3i7tcKCkflWFEkHfuAgM=",
        version = "v0.0.0-20210920133722-c8aef6fb66ef",
    )
    go_repository(
        name = "com_github_in_toto_attestation",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/in-toto/attestation",
        sum = "h1:MBFn6lsMq6dptQZJBhalXTcWMb/aJy3V+GX3VYj/V1E=",
        version = "v1.1.2",
    )
    go_repository(
        name = "com_github_in_toto_in_toto_golang",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/in-toto/in-toto-golang",
        sum = "h1:nfidMYBFx+E0lnmX5KUnN2Pdm8zdNKal1ayjJuzzRoA=",
        version = "v0.11.0",
    )

    go_repository(
        name = "com_github_inconshreveable_mousetrap",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/inconshreveable/mousetrap",
        sum = "h1:wN+x4NVGpMsO7ErUn/mUI3vEoE6Jt13X2s0bqwp9tc8=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_itchyny_gojq",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/itchyny/gojq",
        sum = "h1:IxyYlHYIlspQHHTE0f3cJF0NKDMfajxViuhBLnHd/QU=",
        version = "v0.12.13",
    )
    go_repository(
        name = "com_github_itchyny_timefmt_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/itchyny/timefmt-go",
        sum = "h1:G0INE2la8S6ru/ZI5JecgyzbbJNs5lG1RcBqa7Jm6GE=",
        version = "v0.1.5",
    )
    go_repository(
        name = "com_github_jedisct1_go_minisign",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jedisct1/go-minisign",
        sum = "h1:ZGiXF8sz7PDk6RgkP+A/SFfUD0ZR/AgG6SpRNEDKZy8=",
        version = "v0.0.0-20211028175153-1c139d1cc84b",
    )
    go_repository(
        name = "com_github_jellydator_ttlcache_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jellydator/ttlcache/v3",
        sum = "h1:bOdXmXiycyK6E6Qjyuj5vl+/vU3SCOoDs8a86NbHjAQ=",
        version = "v3.4.1",
    )
    go_repository(
        name = "com_github_jmoiron_sqlx",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/jmoiron/sqlx",
        sum = "h1:1PLqN7S1UYp5t4SrVVnt4nUVNemrDAtxlulVe+Qgm3o=",
        version = "v1.4.0",
    )

    go_repository(
        name = "com_github_johannesboyne_gofakes3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/johannesboyne/gofakes3",
        sum = "h1:I9VEzPWvvAUAGzDlhYFoZjF0AXMlkcEyZlmBwiI6Oms=",
        version = "v1.2.0",
    )
    go_repository(
        name = "com_github_json_iterator_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/json-iterator/go",
        sum = "h1:PV8peI4a0ysnczrg+LtxykD8LfKY9ML6u2jnxaEnrnM=",
        version = "v1.1.12",
    )

    go_repository(
        name = "com_github_klauspost_compress",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/klauspost/compress",
        sum = "h1:zWNoFqq/lSuYQRim3dUXlXeA0IqwuZGicdG5ZTfY5j4=",
        version = "v1.20.3",
    )
    go_repository(
        name = "com_github_klauspost_pgzip",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/klauspost/pgzip",
        sum = "h1:8RXeL5crjEUFnR2/Sn6GJNWtSQ3Dk8pq4CL3jvdDyjU=",
        version = "v1.2.6",
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
        name = "com_github_lucasb_eyer_go_colorful",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/lucasb-eyer/go-colorful",
        sum = "h1:2/yBRLdWBZKrf7gB40FoiKfAWYQ0lqNcbuQwVHXptag=",
        version = "v1.3.0",
    )
    go_repository(
        name = "com_github_mattn_go_colorable",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-colorable",
        sum = "h1:fFA4WZxdEF4tXPZVKMLwD8oUnCTTo08duU7wxecdEvA=",
        version = "v0.1.13",
    )
    go_repository(
        name = "com_github_mattn_go_isatty",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-isatty",
        sum = "h1:xfD0iDuEKnDkl03q4limB+vH+GxLEtL/jb4xVJSWWEY=",
        version = "v0.0.20",
    )
    go_repository(
        name = "com_github_mattn_go_localereader",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-localereader",
        sum = "h1:ygSAOl7ZXTx4RdPYinUpg6W99U8jWvWi9Ye2JC/oIi4=",
        version = "v0.0.1",
    )
    go_repository(
        name = "com_github_mattn_go_runewidth",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-runewidth",
        sum = "h1:78v8ZlW0bP43XfmAfPsdXcoNCelfMHsDmd/pkENfrjQ=",
        version = "v0.0.17",
    )
    go_repository(
        name = "com_github_mattn_go_sqlite3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mattn/go-sqlite3",
        sum = "h1:tpSp2G2KyMnnQu99ngJ47EIkWVmliIizyZBfPrBWDRM=",
        version = "v1.14.24",
    )
    go_repository(
        name = "com_github_microsoft_go_winio",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/Microsoft/go-winio",
        sum = "h1:F2VQgta7ecxGYO8k3ZZz3RS8fVIXVxONVUPlNERoyfY=",
        version = "v0.6.2",
    )
    go_repository(
        name = "com_github_mitchellh_go_homedir",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mitchellh/go-homedir",
        sum = "h1:lukF9ziXFxDFPkA1vsr5zpc1XuPDn/wFntq5mG+4E0Y=",
        version = "v1.1.0",
    )
    go_repository(
        name = "com_github_mitchellh_mapstructure",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mitchellh/mapstructure",
        sum = "h1:jeMsZIYE/09sWLaz43PL7Gy6RuMjD2eJVyuac5Z2hdY=",
        version = "v1.5.0",
    )
    go_repository(
        name = "com_github_moby_docker_image_spec",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/docker-image-spec",
        sum = "h1:jMKff3w6PgbfSa69GfNg+zN/XLhfXJGnEx3Nl2EsFP0=",
        version = "v1.3.1",
    )
    go_repository(
        name = "com_github_moby_moby_api",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/moby/api",
        sum = "h1:wiat9QAhnDQjA7wk1kh/TqHz2I1uUA7M7t9SAl/JNXg=",
        version = "v1.54.2",
    )
    go_repository(
        name = "com_github_moby_moby_client",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/moby/client",
        sum = "h1:DMQgisVoMkmMs7fp3ROSdiBnoAu8+vo3GggFl06M/wY=",
        version = "v0.4.1",
    )
    go_repository(
        name = "com_github_moby_spdystream",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/moby/spdystream",
        sum = "h1:9sNYeYZUcci9R6/w7KDaFWEWeV4LStVG78Mpyq/Zm/Y=",
        version = "v0.5.1",
    )
    go_repository(
        name = "com_github_modelcontextprotocol_go_sdk",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/modelcontextprotocol/go-sdk",
        sum = "h1:KIvahhYqwtbeniWVPs3TcXEA7b8jEtwfBpOTAI+Urx4=",
        version = "v1.8.0",
    )

    go_repository(
        name = "com_github_modern_go_concurrent",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/modern-go/concurrent",
        sum = "h1:TRLaZ9cD/w8PVh93nsPXa1VrQ6jlwL5oN8l14QlcNfg=",
        version = "v0.0.0-20180306012644-bacd9c7ef1dd",
    )
    go_repository(
        name = "com_github_modern_go_reflect2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/modern-go/reflect2",
        sum = "h1:W5t00kpgFdJifH4BDsTlE89Zl93FEloxaWZfGcifgq8=",
        version = "v1.0.3-0.20250322232337-35a7c28c31ee",
    )
    go_repository(
        name = "com_github_monochromegane_go_gitignore",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/monochromegane/go-gitignore",
        sum = "h1:n6/2gBQ3RWajuToeY6ZtZTIKv2v7ThUy5KKusIT0yc0=",
        version = "v0.0.0-20200626010858-205db1a8cc00",
    )

    go_repository(
        name = "com_github_muesli_ansi",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/muesli/ansi",
        sum = "h1:ZK8zHtRHOkbHy6Mmr5D264iyp3TiX5OmNcI5cIARiQI=",
        version = "v0.0.0-20230316100256-276c6243b2f6",
    )
    go_repository(
        name = "com_github_muesli_cancelreader",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/muesli/cancelreader",
        sum = "h1:3I4Kt4BQjOR54NavqnDogx/MIoWBFa0StPA8ELUXHmA=",
        version = "v0.2.2",
    )
    go_repository(
        name = "com_github_muesli_termenv",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/muesli/termenv",
        sum = "h1:S5AlUN9dENB57rsbnkPyfdGuWIlkmzJjbFf0Tf5FWUc=",
        version = "v0.16.0",
    )

    go_repository(
        name = "com_github_munnerz_goautoneg",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/munnerz/goautoneg",
        sum = "h1:C3w9PqII01/Oq1c1nUAm88MOHcQC9l5mIlSMApZMrHA=",
        version = "v0.0.0-20191010083416-a7dc8b61c822",
    )
    go_repository(
        name = "com_github_mxk_go_flowrate",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/mxk/go-flowrate",
        sum = "h1:y5//uYreIhSUg3J1GEMiLbxo1LJaP8RfCpH6pymGZus=",
        version = "v0.0.0-20140419014527-cca7078d478f",
    )

    go_repository(
        name = "com_github_natefinch_atomic",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/natefinch/atomic",
        sum = "h1:ZPYKxkqQOx3KZ+RsbnP/YsgvxWQPGxjC0oBt2AhwV0A=",
        version = "v1.0.1",
    )
    go_repository(
        name = "com_github_nxadm_tail",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/nxadm/tail",
        sum = "h1:8feyoE3OzPrcshW5/MJ4sGESc5cqmGkGCWlco4l0bqY=",
        version = "v1.4.11",
    )
    go_repository(
        name = "com_github_nytimes_gziphandler",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/NYTimes/gziphandler",
        sum = "h1:ZUDjpQae29j0ryrS0u/B8HZfJBtBQHjqw2rQ2cqUQ3I=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_oapi_codegen_runtime",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/oapi-codegen/runtime",
        sum = "h1:7Xx+GlueD6nRuyKoCPzL434Jfi3BetbiJOrzCHp/VPU=",
        version = "v1.6.0",
    )

    go_repository(
        name = "com_github_oklog_ulid",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/oklog/ulid",
        sum = "h1:EGfNDEx6MqHz8B3uNV6QAib1UR2Lm97sHi3ocA6ESJ4=",
        version = "v1.3.1",
    )
    go_repository(
        name = "com_github_oklog_ulid_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/oklog/ulid/v2",
        sum = "h1:suPZ4ARWLOJLegGFiZZ1dFAkqzhMjL3J1TzI+5wHz8s=",
        version = "v2.1.1",
    )
    go_repository(
        name = "com_github_opencontainers_go_digest",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/opencontainers/go-digest",
        sum = "h1:apOUWs51W5PlhuyGyz9FCeeBIOUDA/6nW8Oi/yOhh5U=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_opencontainers_image_spec",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/opencontainers/image-spec",
        sum = "h1:y0fUlFfIZhPF1W537XOLg0/fcx6zcHCJwooC2xJA040=",
        version = "v1.1.1",
    )
    go_repository(
        name = "com_github_pborman_getopt",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pborman/getopt",
        sum = "h1:BHT1/DKsYDGkUgQ2jmMaozVcdk+sVfz0+1ZJq4zkWgw=",
        version = "v0.0.0-20170112200414-7148bc3a4c30",
    )
    go_repository(
        name = "com_github_pelletier_go_toml_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/pelletier/go-toml/v2",
        sum = "h1:mye9XuhQ6gvn5h28+VilKrrPoQVanw5PMw/TB0t5Ec4=",
        version = "v2.2.4",
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
        sum = "h1:JnJkREXzWxUdCuPFpIWZiPispT9xVV59uiuyR2bPlnU=",
        version = "v1.24.1",
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
        sum = "h1:1HvjP4D5oL3t8RsPlwxA9onvvStjtIHYE5XuuwOi/PY=",
        version = "v0.70.1",
    )
    go_repository(
        name = "com_github_prometheus_procfs",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/prometheus/procfs",
        sum = "h1:GljZCt+zSTS+NZq88cyQ1LjZ+RCHp3uVuabBWA5+OJI=",
        version = "v0.21.1",
    )
    go_repository(
        name = "com_github_protonmail_go_crypto",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ProtonMail/go-crypto",
        sum = "h1:9RfcZHqEQUvP8RzecWEUafnZVtEvrBVL9BiF67IQOfM=",
        version = "v1.4.1",
    )
    go_repository(
        name = "com_github_redis_go_redis_v9",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/redis/go-redis/v9",
        sum = "h1:laDvpYXTJtZLloinw1fA5Kqd6HAEH2XKxOkG/PDq2F0=",
        version = "v9.22.0",
    )
    go_repository(
        name = "com_github_rivo_tview",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rivo/tview",
        sum = "h1:b/ftp+RxtDsHSaynXTbJb+/n/BxDEi+W3UfF5jILK6c=",
        version = "v0.42.0",
    )
    go_repository(
        name = "com_github_rivo_uniseg",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rivo/uniseg",
        sum = "h1:WUdvkW8uEhrYfLC4ZzdpI2ztxP1I582+49Oc5Mq64VQ=",
        version = "v0.4.7",
    )
    go_repository(
        name = "com_github_robinus2_golang_moving_average",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/RobinUS2/golang-moving-average",
        sum = "h1:PD7DDZNt+UFb9XlsBbTIu/DtXqqaD/MD86DYnk3mwvA=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_rogpeppe_fastuuid",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rogpeppe/fastuuid",
        sum = "h1:Ppwyp6VYCF1nvBTXL3trRso7mXMlRrw9ooo375wvi2s=",
        version = "v1.2.0",
    )

    go_repository(
        name = "com_github_rogpeppe_go_internal",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rogpeppe/go-internal",
        sum = "h1:UQB4HGPB6osV0SQTLymcB4TgvyWu6ZyliaW0tI/otEQ=",
        version = "v1.14.1",
    )
    go_repository(
        name = "com_github_rs_cors",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/rs/cors",
        sum = "h1:eU3gRzXLRK57F5rKMGMZURNdIG4EoAmX8k94r9wXWHA=",
        version = "v1.11.1",
    )
    go_repository(
        name = "com_github_russross_blackfriday",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/russross/blackfriday",
        sum = "h1:KqfZb0pUVN2lYqZUYRddxF4OR8ZMURnJIG5Y3VRLtww=",
        version = "v1.6.0",
    )

    go_repository(
        name = "com_github_russross_blackfriday_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/russross/blackfriday/v2",
        sum = "h1:JIOH55/0cWyOuilr9/qlrm0BSXldqnqwMsf35Ld67mk=",
        version = "v2.1.0",
    )
    go_repository(
        name = "com_github_ryanuber_go_glob",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ryanuber/go-glob",
        sum = "h1:iQh3xXAumdQ+4Ufa5b25cRpC5TYKlno6hsv6Cb3pkBk=",
        version = "v1.0.0",
    )

    go_repository(
        name = "com_github_ryszard_goskiplist",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ryszard/goskiplist",
        sum = "h1:GHRpF1pTW19a8tTFrMLUcfWwyC0pnifVo2ClaLq+hP8=",
        version = "v0.0.0-20150312221310-2dfbae5fcf46",
    )
    go_repository(
        name = "com_github_sagikazarmark_locafero",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sagikazarmark/locafero",
        sum = "h1:1iurJgmM9G3PA/I+wWYIOw/5SyBtxapeHDcg+AAIFXc=",
        version = "v0.11.0",
    )
    go_repository(
        name = "com_github_santhosh_tekuri_jsonschema_v5",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/santhosh-tekuri/jsonschema/v5",
        sum = "h1:lZUw3E0/J3roVtGQ+SCrUrg3ON6NgVqpn3+iol9aGu4=",
        version = "v5.3.1",
    )

    go_repository(
        name = "com_github_santhosh_tekuri_jsonschema_v6",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/santhosh-tekuri/jsonschema/v6",
        sum = "h1:1EYB5IzjZawrrnELUi78f9fPu57HuXjmddZPjrls/28=",
        version = "v6.0.3",
    )
    go_repository(
        name = "com_github_sassoftware_go_rpmutils",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sassoftware/go-rpmutils",
        sum = "h1:ojND82NYBxgwrV+mX1CWsd5QJvvEZTKddtCdFLPWhpg=",
        version = "v0.4.0",
    )
    go_repository(
        name = "com_github_sassoftware_relic_v8",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sassoftware/relic/v8",
        sum = "h1:9/L4S4I6an/JsPNhmcTpqfiOIsLb/iJaePZD1xR+ulE=",
        version = "v8.2.0",
    )
    go_repository(
        name = "com_github_secure_systems_lab_go_securesystemslib",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/secure-systems-lab/go-securesystemslib",
        sum = "h1:iuCR9kcMFD4QurdKrGvPLoKZLv9YvwPYVr0473BdtFs=",
        version = "v0.11.0",
    )
    go_repository(
        name = "com_github_segmentio_asm",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/segmentio/asm",
        sum = "h1:WM03sfUOENvvKexOLp+pCqgb/WDjsi7EK8gIsICtzhc=",
        version = "v1.1.3",
    )
    go_repository(
        name = "com_github_segmentio_encoding",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/segmentio/encoding",
        sum = "h1:OW1VRern8Nw6ITAtwSZ7Idrl3MXCFwXHPgqESYfvNt0=",
        version = "v0.5.4",
    )

    go_repository(
        name = "com_github_segmentio_kafka_go",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/segmentio/kafka-go",
        sum = "h1:JgDPPG75tC1rWIS2Me6MwcvXJ6f49UQ4HjAOef71Hno=",
        version = "v0.4.51",
    )
    go_repository(
        name = "com_github_sergi_go_diff",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sergi/go-diff",
        sum = "h1:n/SP9D5ad1fORl+llWyN+D6qoUETXNZARKjyY2/KVCw=",
        version = "v1.4.0",
    )

    go_repository(
        name = "com_github_shibumi_go_pathspec",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/shibumi/go-pathspec",
        sum = "h1:QUyMZhFo0Md5B8zV8x2tesohbb5kfbpTi9rBnKh5dkI=",
        version = "v1.3.0",
    )
    go_repository(
        name = "com_github_sigstore_protobuf_specs",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/protobuf-specs",
        sum = "h1:/5OPaNuolRJmQfeZLayJGFXMpsRJEdgC6ah1/+7Px7U=",
        version = "v0.5.1",
    )
    go_repository(
        name = "com_github_sigstore_rekor",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/rekor",
        sum = "h1:A9zITTrkRwO+8lfq7L/gBR7rDHHcBQJRI+a0JQo4xDM=",
        version = "v1.5.4",
    )
    go_repository(
        name = "com_github_sigstore_sigstore",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/sigstore",
        sum = "h1:7Dcpt+ibnltHQZ8XhaU0dFmhHaf/T491eJfA9WDex4Y=",
        version = "v1.10.9",
    )
    go_repository(
        name = "com_github_sigstore_sigstore_pkg_signature_kms_aws",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/sigstore/pkg/signature/kms/aws",
        sum = "h1:2NWAU/utJRwzy1OrQurlY3wlDSynyH1rNJS5GgFchrg=",
        version = "v1.10.9",
    )
    go_repository(
        name = "com_github_sigstore_sigstore_pkg_signature_kms_azure",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/sigstore/pkg/signature/kms/azure",
        sum = "h1:zcg/EG6JW/8RSx9T2g5j6zqxplaE4dymmhiFflDE6ks=",
        version = "v1.10.9",
    )
    go_repository(
        name = "com_github_sigstore_sigstore_pkg_signature_kms_gcp",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/sigstore/pkg/signature/kms/gcp",
        sum = "h1:DG8R4orWDs3l9trp70fLRTgazedEDoAIo/cHEN7Qo0k=",
        version = "v1.10.9",
    )
    go_repository(
        name = "com_github_sigstore_sigstore_pkg_signature_kms_hashivault",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sigstore/sigstore/pkg/signature/kms/hashivault",
        sum = "h1:V+spyeSHypvLHSOvPMT+V72dxDlS0LDkDd6lwCsUOXM=",
        version = "v1.10.9",
    )
    go_repository(
        name = "com_github_sirupsen_logrus",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sirupsen/logrus",
        sum = "h1:TsZE7l11zFCLZnZ+teH4Umoq5BhEIfIzfRDZ1Uzql2w=",
        version = "v1.9.4",
    )

    go_repository(
        name = "com_github_sony_gobreaker",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sony/gobreaker",
        sum = "h1:feX5fGGXSl3dYd4aHZItw+FpHLvvoaqkawKjVNiFMNQ=",
        version = "v1.0.0",
    )
    go_repository(
        name = "com_github_sourcegraph_conc",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/sourcegraph/conc",
        sum = "h1:+jumHNA0Wrelhe64i8F6HNlS8pkoyMv5sreGx2Ry5Rw=",
        version = "v0.3.1-0.20240121214520-5f936abd7ae8",
    )

    go_repository(
        name = "com_github_spf13_afero",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/afero",
        sum = "h1:b/YBCLWAJdFWJTN9cLhiXXcD7mzKn9Dm86dNnfyQw1I=",
        version = "v1.15.0",
    )
    go_repository(
        name = "com_github_spf13_cast",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/cast",
        sum = "h1:h2x0u2shc1QuLHfxi+cTJvs30+ZAHOGRic8uyGTDWxY=",
        version = "v1.10.0",
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
        name = "com_github_spf13_viper",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/spf13/viper",
        sum = "h1:x5S+0EU27Lbphp4UKm1C+1oQO+rKx36vfCoaVebLFSU=",
        version = "v1.21.0",
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
        name = "com_github_subosito_gotenv",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/subosito/gotenv",
        sum = "h1:9NlTDc1FTs4qu0DDq7AEtTPNw6SVm7uBMsUCUjABIf8=",
        version = "v1.6.0",
    )
    go_repository(
        name = "com_github_syndtr_goleveldb",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/syndtr/goleveldb",
        sum = "h1:vfofYNRScrDdvS342BElfbETmL1Aiz3i2t0zfRj16Hs=",
        version = "v1.0.1-0.20220721030215-126854af5e6d",
    )
    go_repository(
        name = "com_github_theupdateframework_go_tuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/theupdateframework/go-tuf",
        sum = "h1:CqbQFrWo1ae3/I0UCblSbczevCCbS31Qvs5LdxRWqRI=",
        version = "v0.7.0",
    )

    go_repository(
        name = "com_github_threedotslabs_watermill",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ThreeDotsLabs/watermill",
        sum = "h1:t5xMivyf9tpmU3iozPqyrCZXHvoV1XQDfihas4sV0fY=",
        version = "v1.5.1",
    )
    go_repository(
        name = "com_github_tink_crypto_tink_go_awskms_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/tink-crypto/tink-go-awskms/v3",
        sum = "h1:XSohRhCkXAVI0iaCnWB/GS05TEmpnKurQmzaY1jzt3Y=",
        version = "v3.0.0",
    )
    go_repository(
        name = "com_github_tink_crypto_tink_go_gcpkms_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/tink-crypto/tink-go-gcpkms/v2",
        sum = "h1:xpI5pnEQ0erFCS3JmcEl7Blluo8ZieEPNOURqy9uD70=",
        version = "v2.4.0",
    )
    go_repository(
        name = "com_github_tink_crypto_tink_go_v2",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/tink-crypto/tink-go/v2",
        sum = "h1:k7QnUXJ1cRDpvoy/5l1FimZqMAArRff8vjUqzi5N04o=",
        version = "v2.7.0",
    )
    go_repository(
        name = "com_github_transparency_dev_formats",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/transparency-dev/formats",
        sum = "h1:5a2XDQ2LiAUV+/RjckMyq9sXudfrPSuCY4FuPC1NyAw=",
        version = "v0.0.0-20251017110053-404c0d5b696c",
    )
    go_repository(
        name = "com_github_transparency_dev_merkle",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/transparency-dev/merkle",
        sum = "h1:Q9nBoQcZcgPamMkGn7ghV8XiTZ/kRxn1yCG81+twTK4=",
        version = "v0.0.2",
    )
    go_repository(
        name = "com_github_transparency_dev_tessera",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/transparency-dev/tessera",
        sum = "h1:IXjGowubcLR0T3zUQrysSMKgtTh9KGKQ0iajUiubyP4=",
        version = "v1.0.4",
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
        name = "com_github_ulikunitz_xz",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ulikunitz/xz",
        sum = "h1:9DNdB5s+SgV3bQ2ApL10xRc35ck0DuIX/isZvIk+ubY=",
        version = "v0.5.15",
    )
    go_repository(
        name = "com_github_veraison_go_cose",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/veraison/go-cose",
        sum = "h1:2/H5w8kdSpQJyVtIhx8gmwPJ2uSz1PkyWFx0idbd7rk=",
        version = "v1.3.0",
    )
    go_repository(
        name = "com_github_x448_float16",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/x448/float16",
        sum = "h1:qLwI1I70+NjRFUR3zs1JPUCgaCXSh3SW62uAKT1mSBM=",
        version = "v0.8.4",
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
        name = "com_github_xi2_xz",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xi2/xz",
        sum = "h1:nIPpBwaJSVYIxUFsDv3M8ofmx9yWTog9BfvIu0q41lo=",
        version = "v0.0.0-20171230120015-48954b6210f8",
    )
    go_repository(
        name = "com_github_xlab_treeprint",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xlab/treeprint",
        sum = "h1:HzHnuAF1plUN2zGlAFHbSQP2qJ0ZAD3XF5XD7OesXRQ=",
        version = "v1.2.0",
    )

    go_repository(
        name = "com_github_xo_terminfo",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/xo/terminfo",
        sum = "h1:JVG44RsyaB9T2KIHavMF/ppJZNG9ZpyihvCd0w101no=",
        version = "v0.0.0-20220910002029-abceb7e1c41e",
    )

    go_repository(
        name = "com_github_xsam_otelsql",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/XSAM/otelsql",
        sum = "h1:ZIhXqRoMhILXQwBQoq/Dl6Taap/KEFQXZrWjYV1L8X8=",
        version = "v0.43.0",
    )
    go_repository(
        name = "com_github_yosida95_uritemplate_v3",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/yosida95/uritemplate/v3",
        sum = "h1:Ed3Oyj9yrmi9087+NczuL5BwkIc4wvTb5zIM+UJPGz4=",
        version = "v3.0.2",
    )

    go_repository(
        name = "com_github_youmark_pkcs8",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/youmark/pkcs8",
        sum = "h1:ilQV1hzziu+LLM3zUTJ0trRztfwgjqKnBWNtSRkbmwM=",
        version = "v0.0.0-20240726163527-a2c0da244d78",
    )
    go_repository(
        name = "com_github_ysmood_fetchup",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ysmood/fetchup",
        sum = "h1:UhYz9xnLEVn2ukSuK3KCgcznWpHMdrmbsPpllcylyu8=",
        version = "v0.3.0",
    )
    go_repository(
        name = "com_github_ysmood_goob",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ysmood/goob",
        sum = "h1:HsxXhyLBeGzWXnqVKtmT9qM7EuVs/XOgkX7T6r1o1AQ=",
        version = "v0.4.0",
    )
    go_repository(
        name = "com_github_ysmood_got",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ysmood/got",
        sum = "h1:CMRoknemO2nkZBpZmRgsWs79UoQz5eDfWmKIAGGFm94=",
        version = "v0.42.0",
    )
    go_repository(
        name = "com_github_ysmood_gson",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ysmood/gson",
        sum = "h1:QFkWbTH8MxyUTKPkVWAENJhxqdBa4lYTQWqZCiLG6kE=",
        version = "v0.7.3",
    )
    go_repository(
        name = "com_github_ysmood_leakless",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/ysmood/leakless",
        sum = "h1:qxCG5VirSBvmi3uynXFkcnLMzkphdh3xx5FtrORwDCU=",
        version = "v0.9.0",
    )

    go_repository(
        name = "com_github_yuin_goldmark",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/yuin/goldmark",
        sum = "h1:fVcFKWvrslecOb/tg+Cc05dkeYx540o0FuFt3nUVDoE=",
        version = "v1.4.13",
    )
    go_repository(
        name = "com_github_zalando_go_keyring",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/zalando/go-keyring",
        sum = "h1:r7Yc3+H+Ux0+M72zacZoItR3UDxeWfKTcabvkI8ua9s=",
        version = "v0.2.6",
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
        name = "com_google_cloud_go_profiler",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/profiler",
        sum = "h1:Vwxqgnp8CQwBNcKjO8luwLCh7qblEkcZCtMUvhU9Yik=",
        version = "v0.6.0",
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
        name = "com_google_cloud_go_spanner",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/spanner",
        sum = "h1:M9RGcj/4gJk6yY1lRLOz1Ze+5ufoWhbIiurzXLOOfcw=",
        version = "v1.87.0",
    )

    go_repository(
        name = "com_google_cloud_go_storage",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/storage",
        sum = "h1:8xD3NvKuHE4c+b/kmSIVBdTc0BiOjplx+KecKGR9fr8=",
        version = "v1.67.0",
    )
    go_repository(
        name = "com_google_cloud_go_trace",
        build_file_proto_mode = "disable_global",
        importpath = "cloud.google.com/go/trace",
        sum = "h1:kDNDX8JkaAG3R2nq1lIdkb7FCSi1rCmsEtKVsty7p+U=",
        version = "v1.11.7",
    )
    go_repository(
        name = "com_sslmate_software_src_go_pkcs12",
        build_file_proto_mode = "disable_global",
        importpath = "software.sslmate.com/src/go-pkcs12",
        sum = "h1:EC6R394xgENTpZ4RltKydeDUjtlM5drOYIG9c6TVj2M=",
        version = "v0.5.0",
    )

    go_repository(
        name = "dev_cel_expr",
        build_file_proto_mode = "disable_global",
        importpath = "cel.dev/expr",
        sum = "h1:A2jO8jwOugrrovveCWfj0KEZOfqiLgAcwjpHPhzIGw0=",
        version = "v0.25.3",
    )
    go_repository(
        name = "dev_essio_al_pkg_shellescape",
        build_file_proto_mode = "disable_global",
        importpath = "al.essio.dev/pkg/shellescape",
        sum = "h1:86HrALUujYS/h+GtqoB26SBEdkWfmMI6FubjXlsXyho=",
        version = "v1.5.1",
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
        name = "in_gopkg_evanphx_json_patch_v4",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/evanphx/json-patch.v4",
        sum = "h1:czT3CmqEaQ1aanPc5SdlgQrrEIb8w/wwCvWWnfEbYzo=",
        version = "v4.13.0",
    )
    go_repository(
        name = "in_gopkg_inf_v0",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/inf.v0",
        sum = "h1:73M5CoZyi3ZLMOyDlQh031Cx6N9NDJ2Vvfl76EDAgDc=",
        version = "v0.9.1",
    )

    go_repository(
        name = "in_gopkg_ini_v1",
        build_file_proto_mode = "disable_global",
        importpath = "gopkg.in/ini.v1",
        sum = "h1:iM9Lhz5MRSGhHVGGwCuzG9KO8PoirCXj/m/qTmOJJQw=",
        version = "v1.67.3",
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
        name = "in_yaml_go_yaml_v2",
        build_file_proto_mode = "disable_global",
        importpath = "go.yaml.in/yaml/v2",
        sum = "h1:tuyd0P+2Ont/d6e2rl3be67goVK4R6deVxCUX5vyPaQ=",
        version = "v2.4.4",
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
        name = "io_k8s_api",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/api",
        sum = "h1:PnxqnUFy93jr2GcpWDkKOm8wfy25kT9wa572MuQS8oc=",
        version = "v0.37.2",
    )
    go_repository(
        name = "io_k8s_apimachinery",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/apimachinery",
        sum = "h1:G4t9RGoPDbQML38hz/kQQiltttgd3egg2ODCR8aIc2o=",
        version = "v0.37.2",
    )
    go_repository(
        name = "io_k8s_gengo_v2",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/gengo/v2",
        sum = "h1:gMplByicHV/TJBizHd9aVEsTYoJBnnUAT5MHlTkbjhQ=",
        version = "v2.0.0-20250922181213-ec3ebc5fd46b",
    )

    go_repository(
        name = "io_k8s_klog_v2",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/klog/v2",
        sum = "h1:Tf+J3AH7xnUzZyVVXhTgGhEKnFqye14aadWv7bzXdzc=",
        version = "v2.140.0",
    )
    go_repository(
        name = "io_k8s_kube_openapi",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/kube-openapi",
        sum = "h1:oXImqH8mQNk7PmvzKhmN3ddJoY6OnyM225MXwGHPm0A=",
        version = "v0.0.0-20260721132016-d427ff9ee9ad",
    )
    go_repository(
        name = "io_k8s_sigs_json",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/json",
        sum = "h1:IpInykpT6ceI+QxKBbEflcR5EXP7sU1kvOlxwZh5txg=",
        version = "v0.0.0-20250730193827-2d320260d730",
    )
    go_repository(
        name = "io_k8s_sigs_kustomize_api",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/kustomize/api",
        sum = "h1:MRyw+zLnFBP+G40gZJoKZErAuRiOPEPao+ddS9L6xt4=",
        version = "v0.21.2",
    )
    go_repository(
        name = "io_k8s_sigs_kustomize_kyaml",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/kustomize/kyaml",
        sum = "h1:1javwStFk7cgOeLU7yJtPmXcgMEhQgC2X0WjFT6U0p0=",
        version = "v0.21.2",
    )
    go_repository(
        name = "io_k8s_sigs_randfill",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/randfill",
        sum = "h1:JfjMILfT8A6RbawdsK2JXGBR5AQVfd+9TbzrlneTyrU=",
        version = "v1.0.0",
    )

    go_repository(
        name = "io_k8s_sigs_release_utils",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/release-utils",
        sum = "h1:kuG6WTWGCKx5uUrJwl2uFErOKOw+4Ba8WrPmOQh5J3g=",
        version = "v0.12.4",
    )
    go_repository(
        name = "io_k8s_sigs_structured_merge_diff_v6",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/structured-merge-diff/v6",
        sum = "h1:qdOxHwrl2Kaag1aQEarlYcOA9vSyGCp3CIki3aW8c4Q=",
        version = "v6.4.2",
    )

    go_repository(
        name = "io_k8s_sigs_yaml",
        build_file_proto_mode = "disable_global",
        importpath = "sigs.k8s.io/yaml",
        sum = "h1:G8fkbMSAFqgEFgh4b1wmtzDnioxFCUgTZhlbj5P9QYs=",
        version = "v1.6.0",
    )
    go_repository(
        name = "io_k8s_streaming",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/streaming",
        sum = "h1:xmzp9nbqIbjvsRcqrBYa+K5XPQ6Jy/Dm3zZ8mN916AI=",
        version = "v0.37.2",
    )
    go_repository(
        name = "io_k8s_utils",
        build_file_proto_mode = "disable_global",
        importpath = "k8s.io/utils",
        sum = "h1:Ea7fgQ5we8Y9T0OX5o0dAHzQOBRI07D/dEYRaB9ZZEs=",
        version = "v0.0.0-20260626114624-be93311217bd",
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
        name = "io_opentelemetry_go_contrib_detectors_aws_ecs",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/contrib/detectors/aws/ecs",
        sum = "h1:m9MlSBKK8jvSekbge0+kJDqEVvKA8tCL1GgxgJBZYw0=",
        version = "v1.40.0",
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
        sum = "h1:j7ALJ/zgkS7Z6aeJW09p8VC9804bC+PpeTfCD4XPnOM=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlpmetric_otlpmetricgrpc",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc",
        sum = "h1:LaLVGJtIzHcvHjVs2OftmKcc+M9mdOqS8vZ1fBD1Yes=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace",
        sum = "h1:julhjPeUH/q/7hinbSdDdqt5h7Zw9YWmRlWRhI0jd54=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_otlp_otlptrace_otlptracegrpc",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc",
        sum = "h1:UFpxOpYPmMNUtOWhdb+nC1WELIgVf8z9higURrbzYU4=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdoutmetric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdoutmetric",
        sum = "h1:PR9eAf7o0dQs3hshZNZpE9aW2dXWX/KdDf6pJilVD3U=",
        version = "v1.46.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_exporters_stdout_stdouttrace",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/exporters/stdout/stdouttrace",
        sum = "h1:lsA/S1bxgdbyFGkTj+3meEdJ6ADVU7QoFstV6MXgE68=",
        version = "v1.45.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_log",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/log",
        sum = "h1:cOTS1CcLbSQeZKanGJ+0JpF/+t4PELi3O3bbl2lqCcI=",
        version = "v1.47.0",
    )

    go_repository(
        name = "io_opentelemetry_go_otel_metric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/metric",
        sum = "h1:4PptaldXx3Eat1XjMZ68pPJEs5wrhlemctZE9a3UdWY=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_metric_x",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/metric/x",
        sum = "h1:DjRLr15H83v+hCW7JA9NoJvOkYTtmq5YoDRbe9deYpM=",
        version = "v0.69.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk",
        sum = "h1:zWXEr4j2lFefG87TU6Yg8a7ngfohIKFZHKp0Hf5hC6I=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_sdk_metric",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/sdk/metric",
        sum = "h1:lfISg2j93VT6yqdk9OfUaZmw/GfcZqCCV3jdXtsPnKw=",
        version = "v1.47.0",
    )
    go_repository(
        name = "io_opentelemetry_go_otel_trace",
        build_file_proto_mode = "disable_global",
        importpath = "go.opentelemetry.io/otel/trace",
        sum = "h1:JOjX/Oci8K94QHddo+bbfya/Ai/nf6/dt9ZfrFNWSrM=",
        version = "v1.47.0",
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
        sum = "h1:rZHRz0ogq4Pid1IKtA/ivHi8XONVF5tqUQXA2TtgpkE=",
        version = "v0.0.0-20260928230214-8a89bd6388cc",
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
        sum = "h1:4bNTbnb44EqGVy9HaQxSY2jnafSUdgV3qHtedvNpDKg=",
        version = "v0.0.0-20260928230214-8a89bd6388cc",
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
        name = "org_golang_x_exp",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/exp",
        sum = "h1:aAcj0Da7eBAtrTp03QXWvm88pSyOt+UgdZw2BFZ+lEw=",
        version = "v0.0.0-20240325151524-a685a6edb6d8",
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
        name = "org_golang_x_tools_go_expect",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/expect",
        sum = "h1:jY2C5HGYR5lqex3gEniOQL0r7Dq5+VGVgY1nudX5lXY=",
        version = "v0.1.0-deprecated",
    )
    go_repository(
        name = "org_golang_x_tools_go_packages_packagestest",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools/go/packages/packagestest",
        sum = "h1:1h2MnaIAIXISqTFKdENegdpAgUXz6NrPEsbIeWaBRvM=",
        version = "v0.1.1-deprecated",
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
        name = "org_uber_go_atomic",
        build_file_proto_mode = "disable_global",
        importpath = "go.uber.org/atomic",
        sum = "h1:ZvwS0R+56ePWxUNi+Atn9dWONBPp/AUETXlHW0DxSjE=",
        version = "v1.11.0",
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
    go_repository(
        name = "sm_step_go_crypto",
        build_file_proto_mode = "disable_global",
        importpath = "go.step.sm/crypto",
        sum = "h1:+u0pDz1OV9M/SswA6KtcQ3GSrYMMelbL//0W/ceJVYI=",
        version = "v0.87.0",
    )

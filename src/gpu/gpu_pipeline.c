/* The skinning and world pipelines: their shaders (skin.comp, world.comp, compiled to SPIR-V
 * at build time), the rig's and the frame's descriptor set layouts and the push constants,
 * which both share. */
#include "gpu_internal.h"

static const uint32_t SKIN_SPV[] =
#include "skin.spv.inc"
    ;
static const uint32_t WORLD_SPV[] =
#include "world.spv.inc"
    ;

static VkResult set_layout(mf_gpu_device *g, uint32_t n, VkDescriptorSetLayout *out)
{
    VkDescriptorSetLayoutBinding b[8];
    for (uint32_t i = 0; i < n; i++)
        b[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                              .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = n, .pBindings = b};
    return g->vkCreateDescriptorSetLayout(g->device, &ci, NULL, out);
}

static VkResult make_pipeline(mf_gpu_device *g, const uint32_t *code, size_t size, VkPipeline *out)
{
    VkShaderModuleCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                   .pCode = code};
    VkShaderModule mod;
    VkResult r = g->vkCreateShaderModule(g->device, &si, NULL, &mod);
    if (r != VK_SUCCESS) return r;
    VkComputePipelineCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = mod, .pName = "main"},
        .layout = g->pipe_layout};
    r = g->vkCreateComputePipelines(g->device, VK_NULL_HANDLE, 1, &pi, NULL, out);
    g->vkDestroyShaderModule(g->device, mod, NULL);
    return r;
}

VkResult mf_gpu_pipeline_make(mf_gpu_device *g)
{
    VkResult r = set_layout(g, MF_GPU_RIG_BUFFERS, &g->rig_layout);
    /* the frame: its words, vertices, indices, and the batch's physics state (world.comp) */
    if (r == VK_SUCCESS) r = set_layout(g, 4, &g->frame_layout);
    if (r != VK_SUCCESS) return r;
    VkDescriptorSetLayout sets[2] = {g->rig_layout, g->frame_layout};
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(mf_gpu_push)};
    VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 2,
                                     .pSetLayouts = sets, .pushConstantRangeCount = 1, .pPushConstantRanges = &push};
    r = g->vkCreatePipelineLayout(g->device, &li, NULL, &g->pipe_layout);
    if (r == VK_SUCCESS) r = make_pipeline(g, SKIN_SPV, sizeof SKIN_SPV, &g->pipeline);
    if (r == VK_SUCCESS) r = make_pipeline(g, WORLD_SPV, sizeof WORLD_SPV, &g->world_pipeline);
    return r;
}

void mf_gpu_pipeline_drop(mf_gpu_device *g)
{
    if (g->pipeline) g->vkDestroyPipeline(g->device, g->pipeline, NULL);
    if (g->world_pipeline) g->vkDestroyPipeline(g->device, g->world_pipeline, NULL);
    if (g->pipe_layout) g->vkDestroyPipelineLayout(g->device, g->pipe_layout, NULL);
    if (g->frame_layout) g->vkDestroyDescriptorSetLayout(g->device, g->frame_layout, NULL);
    if (g->rig_layout) g->vkDestroyDescriptorSetLayout(g->device, g->rig_layout, NULL);
    g->pipeline = g->world_pipeline = VK_NULL_HANDLE, g->pipe_layout = VK_NULL_HANDLE;
    g->frame_layout = g->rig_layout = VK_NULL_HANDLE;
}
